// The knowledge bases of a page, loaded on the server: the team-wide ones (Admin → Knowledge) or a
// project's (its page), each with its documents, and the team's providers to embed a new base with.
import { listDocuments } from "@/lib/knowledge/documents";
import { listKnowledgeBases } from "@/lib/knowledge/knowledge-bases";
import { listProviders } from "@/lib/providers/admin";
import type { TeamContext } from "@/lib/teams/team-context";
import { KnowledgeBasesPanel } from "./knowledge-bases-panel";

type Props = {
  ctx: TeamContext;
  /** A project's bases; none: the team-wide ones. */
  projectId?: string;
  /** Whether the caller may create a base here (an admin for team-wide ones, a project's editors for its). */
  canCreate: boolean;
  emptyText: string;
};

export async function KnowledgeSection({ ctx, projectId, canCreate, emptyText }: Props) {
  const bases = await listKnowledgeBases(ctx, { projectId: projectId ?? null });
  const [documents, providers] = await Promise.all([
    Promise.all(bases.map(async (b) => [b.id, await listDocuments(ctx, b.id)] as const)),
    canCreate || bases.length ? listProviders(ctx.team.id) : Promise.resolve([]),
  ]);
  return (
    <KnowledgeBasesPanel
      bases={bases}
      documents={Object.fromEntries(documents)}
      providers={providers.map((p) => ({ id: p.id, name: p.name, enabled: p.enabled }))}
      projectId={projectId}
      canCreate={canCreate}
      emptyText={emptyText}
    />
  );
}
