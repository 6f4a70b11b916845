// The knowledge bases a chat searches: those its member chose for it (Chat.knowledge: { bases, automatic })
// and, for a chat in a project, that project's own bases. Read again at every turn against who may see
// what now (access.ts): a base deleted since, or one the member no longer sees, is left out without a
// word, as a forged id is. Choosing bases checks them the same way (404 for one the member cannot see).
import { z } from "zod";
import { db } from "../db/client";
import { NotFound } from "../errors";
import { idField } from "../validation";
import { visibleBases, type Caller } from "./access";

/** The most bases a chat may search. */
export const MAX_CHAT_BASES = 20;

export const knowledgeChoiceSchema = z
  .object({
    bases: z.array(idField).max(MAX_CHAT_BASES, `At most ${MAX_CHAT_BASES} knowledge bases.`),
    /** Search before each answer and give the model the passages, instead of offering it the search tool. */
    automatic: z.boolean(),
  })
  .strict();

export type KnowledgeChoice = z.infer<typeof knowledgeChoiceSchema>;

export const NO_KNOWLEDGE: KnowledgeChoice = { bases: [], automatic: false };

/** Chat.knowledge as stored (or anything else: no knowledge). */
export function readKnowledgeChoice(stored: unknown): KnowledgeChoice {
  const parsed = knowledgeChoiceSchema.safeParse(stored);
  return parsed.success ? parsed.data : NO_KNOWLEDGE;
}

/** A base a turn searches, with its embedding model. */
export type SearchableBase = Awaited<ReturnType<typeof chatBases>>[number];

/** The bases a turn of this chat searches: the chosen ones and its project's, those the caller sees now. */
export async function chatBases(ctx: Caller, chat: { knowledge: unknown; projectId: string | null }) {
  const choice = readKnowledgeChoice(chat.knowledge);
  const attached = [...(choice.bases.length ? [{ id: { in: choice.bases } }] : []), ...(chat.projectId ? [{ projectId: chat.projectId }] : [])];
  if (!attached.length) return [];
  const prisma = await db();
  return prisma.knowledgeBase.findMany({
    where: { AND: [visibleBases(ctx), { OR: attached }] },
    select: { id: true, name: true, projectId: true, embeddingModel: true, embeddingDimensions: true, embeddingProvider: true },
    orderBy: { name: "asc" },
  });
}

/** A choice of bases checked against what the caller sees: the same choice, or 404 for a base they cannot see. */
export async function checkKnowledgeChoice(ctx: Caller, choice: KnowledgeChoice): Promise<KnowledgeChoice> {
  const bases = [...new Set(choice.bases)];
  if (bases.length) {
    const prisma = await db();
    const seen = await prisma.knowledgeBase.count({ where: { id: { in: bases }, ...visibleBases(ctx) } });
    if (seen !== bases.length) throw NotFound("No such knowledge base.");
  }
  return { bases, automatic: choice.automatic };
}

/** A base the chat's picker offers: team-wide ones, and the project's own (always searched in its chats). */
export type KnowledgeOption = { id: string; name: string; documents: number; fromProject: boolean };

/** What a chat's knowledge picker lists: the team-wide bases the caller sees, and those of the chat's project. */
export async function knowledgeOptions(ctx: Caller, projectId: string | null): Promise<KnowledgeOption[]> {
  const prisma = await db();
  const rows = await prisma.knowledgeBase.findMany({
    where: { AND: [visibleBases(ctx), { OR: [{ projectId: null }, ...(projectId ? [{ projectId }] : [])] }] },
    select: { id: true, name: true, projectId: true, _count: { select: { documents: { where: { status: "ready" } } } } },
    orderBy: { name: "asc" },
  });
  return rows.map((b) => ({ id: b.id, name: b.name, documents: b._count.documents, fromProject: b.projectId !== null }));
}
