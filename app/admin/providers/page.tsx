import Link from "next/link";
import { adminPage } from "@/app/_server/page-guards";
import { listProviders } from "@/lib/providers/admin";
import { PROVIDER_KINDS, kindInfo } from "@/lib/providers/kinds";
import { pickerModels } from "@/lib/providers/models";
import { detectLocalServers } from "@/lib/providers/probe";
import { teamModelChoice } from "@/lib/providers/resolve";
import { ProviderForm } from "@/components/admin/providers/provider-form";
import { TeamModelsForm } from "@/components/admin/providers/team-models-form";
import { createProviderAction, setTeamModelsAction, testConnectionAction } from "./actions";

export const metadata = { title: "Providers" };

export default async function ProvidersPage() {
  const ctx = await adminPage("/admin/providers");
  const [providers, picker, settings, local] = await Promise.all([
    listProviders(ctx.team.id),
    pickerModels(ctx.team.id),
    teamModelChoice(ctx.team.id),
    detectLocalServers(),
  ]);
  const suggestion = local.find((s) => !providers.some((p) => p.baseUrl?.replace(/\/+$/, "") === s.baseUrl));
  return (
    <div className="flex flex-col gap-10">
      <section aria-labelledby="providers-heading">
        <h1 id="providers-heading" className="mb-3 text-lg font-semibold">
          Providers
        </h1>
        {providers.length === 0 ? (
          <p className="text-sm text-subtle">No providers yet. Add one below.</p>
        ) : (
          <ul className="flex flex-col divide-y divide-line rounded-lg border border-line">
            {providers.map((p) => (
              <li key={p.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2 text-sm">
                <Link href={`/admin/providers/${p.id}`} className="font-medium text-accent-text underline">
                  {p.name}
                </Link>
                <span className="text-subtle">{kindInfo(p.kind).label}</span>
                {p.baseUrl && <span className="font-mono text-xs text-subtle">{p.baseUrl}</span>}
                {p.apiKeyHint && <span className="font-mono text-xs text-subtle">key {p.apiKeyHint}</span>}
                <span className="ml-auto text-xs text-subtle">
                  {p.models.filter((m) => m.enabled).length} of {p.models.length} models enabled
                  {!p.enabled && " · disabled"}
                  {p.scope === "instance" && " · set by the operator, shared by all teams"}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="team-models-heading">
        <h2 id="team-models-heading" className="mb-3 text-lg font-semibold">
          Team models
        </h2>
        <TeamModelsForm groups={picker.groups} defaultModelId={settings.defaultModelId} fallbackModelId={settings.fallbackModelId} save={setTeamModelsAction} />
      </section>
      <section aria-labelledby="new-provider-heading" className="max-w-xl">
        <h2 id="new-provider-heading" className="mb-3 text-lg font-semibold">
          Add a provider
        </h2>
        <ProviderForm kinds={[...PROVIDER_KINDS]} save={createProviderAction} test={testConnectionAction} suggestion={suggestion} />
      </section>
    </div>
  );
}
