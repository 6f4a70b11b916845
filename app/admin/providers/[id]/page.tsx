import Link from "next/link";
import { adminPage, orNotFound } from "@/lib/auth/page-guards";
import { getProvider } from "@/lib/providers/admin";
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
