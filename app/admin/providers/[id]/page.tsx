import Link from "next/link";
import type { ReactNode } from "react";
import { adminPage, orNotFound } from "@/app/_server/page-guards";
import { getProvider, type ProviderView } from "@/lib/providers/admin";
import { PROVIDER_KINDS, kindInfo } from "@/lib/providers/kinds";
import { ProviderForm } from "@/components/admin/providers/provider-form";
import { EnableDeleteControls } from "@/components/admin/enable-delete-controls";
import { ModelsPanel } from "@/components/admin/providers/models-panel";
import { setProviderToolsAction } from "../provider-tools-action";
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
      <ProviderHeading provider={provider} label={kind.label} />
      <Section id="models-heading" title="Models">
        <ModelsPanel
          provider={provider}
          webSearchKind={kind.webSearch}
          actions={{
            fetch: fetchModelsAction,
            enable: enableModelsAction,
            save: saveModelAction,
            remove: deleteModelAction,
            providerTools: setProviderToolsAction,
          }}
        />
      </Section>
      <Section id="settings-heading" title="Connection" className="max-w-xl">
        <ProviderForm provider={provider} kinds={[...PROVIDER_KINDS]} save={updateProviderAction} test={testConnectionAction} />
      </Section>
      <Section id="danger-heading" title="Availability">
        <EnableDeleteControls
          idField="providerId"
          id={provider.id}
          noun="provider"
          enabled={provider.enabled}
          setEnabled={toggleProviderAction}
          remove={deleteProviderAction}
          confirm={{
            title: "Delete this provider?",
            description: "Delete this provider and all its models? Chats that used them fall back to the team default.",
            button: "Delete provider",
          }}
        />
      </Section>
    </div>
  );
}

/** The operator's provider: what it offers, read-only (team admins choose its models under Team models). */
function InstanceProvider({ provider, label }: { provider: ProviderView; label: string }) {
  return (
    <div className="flex flex-col gap-6">
      <ProviderHeading provider={provider} label={label} />
      <p className="max-w-xl text-sm">
        This provider is set by the operator of this instance (environment variables) and shared by every team. Its key stays on the server. Your team can use
        its models and make one the team default on the Providers page; only the operator can change it.
      </p>
      <Section id="models-heading" title="Models">
        <ul aria-label="Models" className="flex flex-col gap-1 text-sm">
          {provider.models.map((m) => (
            <li key={m.id}>
              <span className="font-medium">{m.displayName}</span> <span className="font-mono text-xs text-subtle">{m.modelId}</span>
              {!m.enabled && <span className="text-subtle"> · disabled</span>}
            </li>
          ))}
        </ul>
      </Section>
    </div>
  );
}

/** The way back to the list, the provider's name, its kind and whether it is disabled. */
function ProviderHeading({ provider, label }: { provider: ProviderView; label: string }) {
  return (
    <div>
      <Link href="/admin/providers" className="text-sm text-accent-text underline">
        ← Providers
      </Link>
      <h1 className="mt-2 text-lg font-semibold">{provider.name}</h1>
      <p className="text-sm text-subtle">
        {label}
        {!provider.enabled && " · disabled"}
      </p>
    </div>
  );
}

/** A part of the page, named by its heading. */
function Section({ id, title, className, children }: { id: string; title: string; className?: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className={className}>
      <h2 id={id} className="mb-3 text-lg font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}
