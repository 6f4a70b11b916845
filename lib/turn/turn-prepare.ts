// The prepare phase of a turn (turn.ts): what the model gets. The MCP tools the chat has selected, from
// servers that answer now (each within its connect timeout; one that does not leaves a notice), with
// the approval decider for this member and chat; the knowledge-search tool or the passages found for
// the question (turn-knowledge.ts); the attachments as files or text; the history from the database;
// the system prompt; and the model with its fallback, provider-native tools, cache
// breakpoints and providerOptions (turn-model.ts). A continued answer's decided calls run without
// asking again, and inputs a person edited are told to the model.
import type { ModelMessage, ToolSet } from "ai";
import { filesForModel } from "../attachments/model-files";
import type { NoticeData } from "../messages/message-types";
import type { TeamContext } from "../teams/team-context";
import { moveToolImages, toolImageMode } from "../providers/tool-images";
import type { assembleTools } from "../tools/tool-set";
import { chatAllowedTools } from "../tools/preferences";
import { approvalDecider, type CallVerdict } from "../approvals/turn-policy";
import { citationCollector } from "../messages/citations";
import { askOwner } from "../mcp-chat/elicitations";
import { toModelHistory } from "../chat/history";
import { systemPrompt } from "./system-prompt";
import type { ClaimedTurn } from "./turn-claim";
import type { LoadedTurn } from "./turn-load";
import { prepareTurn, type PreparedTurn } from "./turn-model";
import { turnKnowledge } from "./turn-knowledge";

export type PrepareDeps = {
  tools: typeof assembleTools;
  extraTools?: ToolSet;
  idleTimeoutMs: () => number;
};

/** A prepared turn, with what its later phases need of the preparation. */
export type PreparedAnswer = {
  prepared: PreparedTurn;
  /** How each call was let through or asked about (turn-policy.ts), stored with the approval requests. */
  verdicts: Map<string, CallVerdict>;
  citations: ReturnType<typeof citationCollector>;
  /** Moves tool images into a user message for models that read images only there. */
  prepareStep?: (options: { messages: ModelMessage[] }) => { messages: ModelMessage[] };
};

export async function prepareAnswer(
  deps: PrepareDeps,
  ctx: TeamContext,
  loaded: LoadedTurn,
  claimed: ClaimedTurn,
  notices: readonly NoticeData[],
): Promise<PreparedAnswer> {
  const { continued, assistantId } = claimed;
  const decided = new Set(continued?.blocks.filter((b) => b.status === "approval-responded").map((b) => b.toolCallId!) ?? []);
  // Inputs a person edited before approving: the model is told (tool-set.ts editedNote).
  const editedCalls = new Map(
    continued?.blocks.filter((b) => b.status === "approval-responded" && b.originalInput !== null).map((b) => [b.toolCallId!, b.originalInput]) ?? [],
  );
  const verdicts = new Map<string, CallVerdict>();
  const citations = citationCollector();
  // Images from tools reach a model with vision as images (in the tool result, or a user message after it).
  const imageMode = toolImageMode(loaded.model);
  const images = imageMode === "none" ? "placeholder" : "attach";
  const mcpTools = deps.tools({
    images,
    teamId: ctx.team.id,
    userId: ctx.user.id,
    selection: loaded.chat.toolSelection,
    editedCalls,
    decider: () => approvalDecider(ctx.user.id, { decidedCallIds: decided, chatAllowed: chatAllowedTools(loaded.chat.allowedTools), verdicts }),
    onCitations: (items) => citations.addLater(items.map((c) => ({ ...c, origin: "mcp" as const }))),
    // A server's question during a call waits for the chat's owner until the call's time limit.
    elicit: ({ timeoutMs, ...call }) => askOwner({ ...call, chatId: loaded.chat.id, messageId: assistantId, expiresAt: new Date(Date.now() + timeoutMs) }),
  });
  const [mcp, knowledge] = await Promise.all([mcpTools, turnKnowledge(ctx, loaded, claimed.history, citations, verdicts)]);
  // Attachments: as files for a model that reads them, else as their text, with a notice (lib/attachments).
  const files = await filesForModel(claimed.history, loaded.model);
  const system = [systemPrompt({ name: ctx.user.name, instructions: loaded.instructions }, loaded.projectInstructions), knowledge.context].filter(Boolean);
  const prepared = prepareTurn(loaded.model, {
    messages: await toModelHistory(files.history, { continueAnswer: !!loaded.request.continue, images }),
    system: system.length ? system.join("\n\n") : undefined,
    tools: { ...mcp.tools, ...knowledge.tools, ...deps.extraTools },
    idleMs: deps.idleTimeoutMs(),
    fallback: loaded.fallback,
    notices: [...mcp.notices, ...knowledge.notices, ...notices, ...files.notices],
  });
  return {
    prepared,
    verdicts,
    citations,
    prepareStep: imageMode === "user-message" ? ({ messages }) => ({ messages: moveToolImages(messages) }) : undefined,
  };
}
