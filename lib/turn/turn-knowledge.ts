// The knowledge of a turn (lib/knowledge): a chat with knowledge bases (its own choice and its project's)
// either offers the model the knowledge-search tool, or — set to retrieve automatically — searches with
// the question before the model answers and gives it the passages with the system prompt. Either way
// the passages are numbered as the answer's citations, and each search is an audit event. The team's
// search policy (lib/knowledge/search-policy.ts) decides whether a search waits for the member or an
// admin (then the tool is offered even to a chat set to search by itself) or is off.
import type { ToolSet } from "ai";
import { audit } from "../audit";
import { db } from "../db/client";
import { chatBases, readKnowledgeChoice } from "../knowledge/chat-bases";
import { citedPassages, KNOWLEDGE_TOOL, knowledgeSearchTool } from "../knowledge/knowledge-tool";
import { DEFAULT_PASSAGES, retrievePassages } from "../knowledge/retrieve";
import { passagesForModel } from "../format/knowledge-result";
import type { citationCollector } from "../messages/citations";
import type { NoticeData, ParleyUIMessage } from "../messages/message-types";
import type { TeamContext } from "../teams/team-context";
import type { LoadedTurn } from "./turn-load";
import type { CallVerdict } from "../approvals/turn-policy";
import { knowledgeSearchPolicy } from "../knowledge/search-policy";

export type TurnKnowledge = { tools: ToolSet; context?: string; notices: NoticeData[] };

/** The text of the newest question of the history (what automatic retrieval searches with). */
function lastQuestion(history: readonly ParleyUIMessage[]): string | undefined {
  const question = history.findLast((m) => m.role === "user");
  const text = question?.parts.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("\n");
  return text?.trim() || undefined;
}

function recordSearch(ctx: TeamContext, chatId: string, search: { query: string; passages: number; toolCallId?: string; automatic?: boolean }) {
  void db()
    .then((prisma) =>
      audit(prisma, { teamId: ctx.team.id, actorId: ctx.user.id, action: "knowledge.search", targetType: "chat", targetId: chatId, data: search }),
    )
    .catch((err) => console.warn("[knowledge] could not record a search:", (err as Error).message));
}

export async function turnKnowledge(
  ctx: TeamContext,
  loaded: LoadedTurn,
  history: readonly ParleyUIMessage[],
  citations: ReturnType<typeof citationCollector>,
  verdicts: Map<string, CallVerdict>,
): Promise<TurnKnowledge> {
  const bases = await chatBases(ctx, loaded.chat);
  if (!bases.length) return { tools: {}, notices: [] };
  const policy = await knowledgeSearchPolicy(ctx.team.id);
  if (policy === "deny") return { tools: {}, notices: [{ code: "KnowledgeOff", message: "An admin has turned knowledge search off for this team's chats." }] };
  const cite = (items: Parameters<typeof citations.cite>[0]) => citations.cite(items);
  if (policy !== "auto" || !readKnowledgeChoice(loaded.chat.knowledge).automatic) {
    const by = policy === "admin" ? ("admin" as const) : ("member" as const);
    // Every call of a tool that asks keeps asking (a decided one too: the AI SDK runs only calls that need approval).
    const needsApproval =
      policy === "auto"
        ? undefined
        : (_input: unknown, { toolCallId }: { toolCallId: string }) => {
            verdicts.set(toolCallId, { by, timeoutMin: null });
            return true;
          };
    const tool = knowledgeSearchTool({ ctx, bases, cite, needsApproval, onSearch: (s) => recordSearch(ctx, loaded.chat.id, s) });
    return { tools: { [KNOWLEDGE_TOOL]: tool }, notices: [] };
  }
  // A continued answer (after Stop or decisions) keeps what it was given; only a new question searches.
  const query = loaded.request.continue || loaded.request.decisions || loaded.request.afterDecisions ? undefined : lastQuestion(history);
  if (!query) return { tools: {}, notices: [] };
  const found = await retrievePassages(ctx, bases, query.slice(0, 1_000), DEFAULT_PASSAGES);
  recordSearch(ctx, loaded.chat.id, { query: query.slice(0, 1_000), passages: found.passages.length, automatic: true });
  const passages = citedPassages(found.passages, cite);
  const notices: NoticeData[] = found.degraded ? [{ code: "KnowledgeDegraded", message: found.degraded }] : [];
  const context = `Passages from the team's documents that may answer the person's newest question, found before you answer. Use them where they help and say so when they do not answer it.\n\n${passagesForModel(passages)}`;
  return { tools: {}, context, notices };
}
