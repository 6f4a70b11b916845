import Link from "next/link";
import { adminPage, orNotFound } from "@/lib/teams/page-guards";
import { getProvider, type ProviderView } from "@/lib/providers/admin";
import { PROVIDER_KINDS, kindInfo } from "@/lib/providers/kinds";
import { ProviderForm } from "@/components/admin/providers/provider-form";
import { ProviderControls } from "@/components/admin/providers/provider-controls";
import { ModelsPanel } from "@/components/admin/providers/models-panel";
import {
  deleteModelAction,
  deleteProviderAction,
  enableModelsAction,
  fetchModelsAction,
  saveModelAction,
  testConnectionAction,
  toggleProviderAction,
  updateProviderAction,
} from "../actions";

export const metadata = { title: "Provider" };

export default async function ProviderPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const ctx = await adminPage(`/admin/providers/${id}`);
  const provider = await orNotFound(getProvider(ctx.team.id, id));
  const kind = kindInfo(provider.kind);
  if (provider.scope === "instance") return <InstanceProvider provider={provider} label={kind.label} />;
  return (
    <div className="flex flex-col gap-10">
      <div>
        <Link href="/admin/providers" className="text-sm text-accent-text underline">
          ← Providers
        </Link>
        <h1 className="mt-2 text-lg font-semibold">{provider.name}</h1>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          {kind.label}
          {!provider.enabled && " · disabled"}
        </p>
      </div>
      <section aria-labelledby="models-heading">
        <h2 id="models-heading" className="mb-3 text-lg font-semibold">
          Models
        </h2>
        <ModelsPanel
          provider={provider}
          webSearchKind={kind.webSearch}
          actions={{ fetch: fetchModelsAction, enable: enableModelsAction, save: saveModelAction, remove: deleteModelAction }}
        />
      </section>
      <section aria-labelledby="settings-heading" className="max-w-xl">
        <h2 id="settings-heading" className="mb-3 text-lg font-semibold">
          Connection
        </h2>
        <ProviderForm provider={provider} kinds={[...PROVIDER_KINDS]} save={updateProviderAction} test={testConnectionAction} />
      </section>
      <section aria-labelledby="danger-heading">
        <h2 id="danger-heading" className="mb-3 text-lg font-semibold">
          Availability
        </h2>
        <ProviderControls providerId={provider.id} enabled={provider.enabled} toggle={toggleProviderAction} remove={deleteProviderAction} />
      </section>
    </div>
  );
}

/** The operator's provider: what it offers, read-only (team admins choose its models under Team models). */
function InstanceProvider({ provider, label }: { provider: ProviderView; label: string }) {
  return (
    <div className="flex flex-col gap-6">
      <div>
        <Link href="/admin/providers" className="text-sm text-accent underline">
          ← Providers
        </Link>
        <h1 className="mt-2 text-lg font-semibold">{provider.name}</h1>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          {label}
          {!provider.enabled && " · disabled"}
        </p>
      </div>
      <p className="max-w-xl text-sm">
        This provider is set by the operator of this instance (environment variables) and shared by every team. Its key stays on the
        server. Your team can use its models and make one the team default on the Providers page; only the operator can change it.
      </p>
      <section aria-labelledby="models-heading">
        <h2 id="models-heading" className="mb-3 text-lg font-semibold">
          Models
        </h2>
        <ul aria-label="Models" className="flex flex-col gap-1 text-sm">
          {provider.models.map((m) => (
            <li key={m.id}>
              <span className="font-medium">{m.displayName}</span> <span className="font-mono text-xs text-zinc-600 dark:text-zinc-400">{m.modelId}</span>
              {!m.enabled && <span className="text-zinc-600 dark:text-zinc-400"> · disabled</span>}
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
