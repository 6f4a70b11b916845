// What a page showing knowledge bases needs, read on the server: the team-wide bases (Admin → Knowledge)
// or a project's (its page), each with its documents, and the team's providers to embed a new base with.
import { listProviders } from "../providers/admin";
import type { TeamContext } from "../teams/team-context";
import { listDocuments, type DocumentView } from "./documents";
import { listKnowledgeBases, type BaseSummary } from "./knowledge-bases";

export type KnowledgePageData = {
  bases: BaseSummary[];
  documents: Record<string, DocumentView[]>;
  providers: { id: string; name: string; enabled: boolean }[];
};

/** `projectId`: a project's bases, else the team-wide ones; `canCreate`: the providers are read for the form. */
export async function knowledgePageData(ctx: TeamContext, opts: { projectId?: string; canCreate: boolean }): Promise<KnowledgePageData> {
  const bases = await listKnowledgeBases(ctx, { projectId: opts.projectId ?? null });
  const [documents, providers] = await Promise.all([
    Promise.all(bases.map(async (b) => [b.id, await listDocuments(ctx, b.id)] as const)),
    opts.canCreate || bases.length ? listProviders(ctx.team.id) : Promise.resolve([]),
  ]);
  return {
    bases,
    documents: Object.fromEntries(documents),
    providers: providers.map((p) => ({ id: p.id, name: p.name, enabled: p.enabled })),
  };
}
