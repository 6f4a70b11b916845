// A chat's history from the database: the stored messages and blocks of the chat's branch
// (branches.ts) -> UI messages (for the browser, in pages from the newest, each with its versions)
// and -> model messages (for the next turn). The client never supplies history.
import { convertToModelMessages, getToolName, isToolUIPart, type FilePart, type ModelMessage, type TextPart, type ToolSet } from "ai";
import { isMcpResult, resultModelOutput, type ImageHandling } from "../mcp/results";
import { db } from "../db/client";
import type { Block, Citation, Message } from "../db/generated/client";
import { versionsOf, type Versions } from "./branches";
import { citationView } from "../messages/citations";
import { isKnowledgeResult, knowledgeModelOutput } from "../format/knowledge-result";
import { formatToolError } from "../format/tool-error";
import type { ParleyMetadata, ParleyUIMessage, ResourceData } from "../messages/message-types";
import { blocksToParts } from "../messages/parts";
import { withApprovalDetails, type BlockWithDecider } from "../messages/approval-details";
import { HANDED_OVER, HANDED_OVER_REASON } from "../messages/handed-over";

export const HISTORY_PAGE_SIZE = 50;

type MessageWithBlocks = Message & { blocks: (Block & Partial<BlockWithDecider>)[]; citations?: Citation[] };

function toUIMessage(m: MessageWithBlocks, versions?: Versions): ParleyUIMessage {
  const metadata: ParleyMetadata = { status: m.status, createdAt: m.createdAt.toISOString() };
  if (versions) metadata.versions = versions;
  if (m.model) metadata.model = m.model;
  if (m.finishReason) metadata.finishReason = m.finishReason;
  // Handed over by a stopping instance: an open page keeps looking until another instance goes on with it.
  if (m.status === "interrupted" && m.finishReason === HANDED_OVER_REASON) metadata.handedOver = HANDED_OVER;
  if (m.inputTokens != null || m.outputTokens != null) {
    metadata.usage = {
      inputTokens: m.inputTokens ?? undefined,
      outputTokens: m.outputTokens ?? undefined,
      cachedInputTokens: m.cachedInputTokens ?? undefined,
      reasoningTokens: m.reasoningTokens ?? undefined,
      cost: m.cost ?? undefined,
    };
  }
  if (m.citations?.length) metadata.citations = m.citations.map(citationView);
  return { id: m.id, role: m.role, metadata, parts: blocksToParts(m.blocks).map((p, i) => withApprovalDetails(p, m.blocks[i])) };
}

const withBlocks = {
  blocks: { orderBy: { ordinal: "asc" as const }, include: { decidedBy: { select: { name: true } } } },
  citations: { orderBy: { ordinal: "asc" as const } },
};

/** A page of the branch's messages, oldest first, ending just before `beforeSeq` (or at the newest). */
export async function loadMessagePage(chatId: string, opts: { beforeSeq?: number; limit?: number } = {}) {
  const prisma = await db();
  const limit = opts.limit ?? HISTORY_PAGE_SIZE;
  const rows = await prisma.message.findMany({
    where: { chatId, onBranch: true, ...(opts.beforeSeq !== undefined ? { seq: { lt: opts.beforeSeq } } : {}) },
    include: withBlocks,
    // Not joined: in a chat of 2,000 messages, PostgreSQL built every message's blocks before it
    // sorted and cut the page (a page of 50 took ~200 ms joined, ~15 ms in queries of their own).
    relationLoadStrategy: "query",
    orderBy: { seq: "desc" },
    take: limit + 1,
  });
  const hasMore = rows.length > limit;
  const page = rows.slice(0, limit).reverse();
  const versions = await versionsOf(chatId, page);
  return { messages: page.map((m) => toUIMessage(m, versions.get(m.id))), hasMore, firstSeq: page[0]?.seq };
}

/** The context window assumed for a model whose admin did not set one (tokens). */
const DEFAULT_CONTEXT_TOKENS = 128_000;
/**
 * Characters of history per token of a model's window: ~3 characters per token (less than English's
 * ~4, so that code and other scripts fit too), of which a quarter is left for the answer, the
 * instructions and the tool definitions.
 */
const HISTORY_CHARS_PER_TOKEN = 2.25;
/** Messages read per query, newest first; later reads take what the rest of the budget holds. */
const FIRST_BATCH = 100;
const MAX_BATCH = 1_000;

/** The characters of history a model with this context window reads. */
export function historyBudget(contextWindow: number | null | undefined): number {
  return Math.floor((contextWindow ?? DEFAULT_CONTEXT_TOKENS) * HISTORY_CHARS_PER_TOKEN);
}

export type History = {
  /** Oldest first. */
  messages: ParleyUIMessage[];
  /** Older messages were left out: they do not fit the budget. */
  cut: boolean;
};

/** How much of a model's context a message takes, in characters (its parts as sent, roughly). */
const sizeOf = (m: ParleyUIMessage): number => JSON.stringify(m.parts).length;

/**
 * The conversation before a turn, oldest first, as UI messages (a continued answer resumes its last
 * one): the newest messages whose parts fit in `maxChars`, read from the newest in batches, so that a
 * long chat costs what its model can read, not its whole length. The newest message is kept whatever
 * its size, and a cut history starts at a question. Only the chat's branch is read, and of it what
 * comes before `beforeSeq` when given (the version being replaced, and what followed it). `exclude`
 * leaves out rows by id: the turn's own new rows when they may already be written.
 */
export async function loadHistory(chatId: string, opts: { exclude?: string[]; maxChars?: number; beforeSeq?: number } = {}): Promise<History> {
  const budget = newestFirstBudget(opts.maxChars ?? Infinity);
  const newestFirst: ParleyUIMessage[] = [];
  let beforeSeq = opts.beforeSeq;
  let take = FIRST_BATCH;
  for (;;) {
    const { batch, more } = await readBatch(chatId, { exclude: opts.exclude, beforeSeq, take });
    for (const row of batch) {
      const message = toUIMessage(row);
      if (!budget.fits(message)) return { messages: fromQuestion(newestFirst.reverse()), cut: true };
      newestFirst.push(message);
    }
    if (!more) return { messages: newestFirst.reverse(), cut: false };
    beforeSeq = batch[batch.length - 1].seq;
    take = Math.max(FIRST_BATCH, Math.min(MAX_BATCH, budget.messagesLeft()));
  }
}

/**
 * Up to `take` messages of the branch before `beforeSeq`, newest first, with their blocks, citations
 * and deciders; `more` when older ones are left. The blocks and citations are read by the batch's seq
 * range, side by side, and the deciders' names only for blocks that have one: joined or by a list of
 * ids, a batch of 650 messages took twice as long (npm run bench, the long chat).
 */
async function readBatch(
  chatId: string,
  opts: { exclude?: string[]; beforeSeq?: number; take: number },
): Promise<{ batch: MessageWithBlocks[]; more: boolean }> {
  const prisma = await db();
  const rows = await prisma.message.findMany({
    where: {
      chatId,
      onBranch: true,
      ...(opts.exclude?.length ? { id: { notIn: opts.exclude } } : {}),
      ...(opts.beforeSeq !== undefined ? { seq: { lt: opts.beforeSeq } } : {}),
    },
    orderBy: { seq: "desc" },
    take: opts.take + 1,
  });
  const batch = rows.slice(0, opts.take);
  if (!batch.length) return { batch: [], more: false };
  const inBatch = { chatId, onBranch: true, seq: { gte: batch[batch.length - 1].seq, lte: batch[0].seq } };
  const [blocks, citations] = await Promise.all([
    prisma.block.findMany({ where: { message: inBatch }, orderBy: { ordinal: "asc" } }),
    prisma.citation.findMany({ where: { message: inBatch }, orderBy: { ordinal: "asc" } }),
  ]);
  const deciderIds = [...new Set(blocks.flatMap((b) => (b.decidedById ? [b.decidedById] : [])))];
  const deciders = new Map(
    deciderIds.length
      ? (await prisma.user.findMany({ where: { id: { in: deciderIds } }, select: { id: true, name: true } })).map((u) => [u.id, { name: u.name }])
      : [],
  );
  const blocksOf = groupBy(
    blocks.map((b) => (b.decidedById ? { ...b, decidedBy: deciders.get(b.decidedById) ?? null } : b)),
    (b) => b.messageId,
  );
  const citationsOf = groupBy(citations, (c) => c.messageId);
  return { batch: batch.map((m) => ({ ...m, blocks: blocksOf.get(m.id) ?? [], citations: citationsOf.get(m.id) ?? [] })), more: rows.length > opts.take };
}

/** The newest messages of a history (oldest first) that fit in `maxChars`, as loadHistory cuts them. */
export function fitHistory(history: History, maxChars: number): History {
  const budget = newestFirstBudget(maxChars);
  let i = history.messages.length;
  while (i > 0 && budget.fits(history.messages[i - 1])) i--;
  if (i === 0) return history;
  return { messages: fromQuestion(history.messages.slice(i)), cut: true };
}

/** Messages taken from the newest back while they fit in `maxChars`; the newest always fits. */
function newestFirstBudget(maxChars: number) {
  let used = 0;
  const sizes: number[] = [];
  return {
    /** Whether the next older message fits; it is counted when it does. */
    fits(message: ParleyUIMessage): boolean {
      const size = sizeOf(message);
      if (sizes.length && used + size > maxChars) return false;
      used += size;
      sizes.push(size);
      return true;
    },
    /**
     * About how many more messages fit, at the median size seen so far (with a tenth to spare). Not
     * the mean: a few long answers among many short questions made it read too few, and every read
     * more is two more round trips to the database.
     */
    messagesLeft(): number {
      const median = [...sizes].sort((a, b) => a - b)[sizes.length >> 1];
      return Math.ceil(((maxChars - used) / median) * 1.1);
    },
  };
}

/** A cut history starts at a user's message (some providers refuse anything else first). */
function fromQuestion(messages: ParleyUIMessage[]): ParleyUIMessage[] {
  const first = messages.findIndex((m) => m.role === "user");
  return first > 0 ? messages.slice(first) : messages;
}

/** Rows by a key, each group in the order the rows came. */
function groupBy<T>(rows: T[], key: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const k = key(row);
    const group = groups.get(k);
    if (group) group.push(row);
    else groups.set(k, [row]);
  }
  return groups;
}

/**
 * What the model reads of a conversation. Decided approvals become approval responses (a denial
 * says why); calls still waiting, or cut short by a crash, are left out, and so are answers that
 * hold only errors or notices. Continuing a stopped answer ends with the request to go on.
 */
export async function toModelHistory(ui: ParleyUIMessage[], opts: { continueAnswer?: boolean; images?: ImageHandling } = {}): Promise<ModelMessage[]> {
  const messages = await convertToModelMessages(ui.filter(hasModelContent).map(explainDenials), {
    ignoreIncompleteToolCalls: true,
    tools: storedOutputs(ui, opts.images ?? "placeholder"),
    convertDataPart: (part) => (part.type === "data-resource" ? attachmentPart(part.data as ResourceData, opts.images ?? "placeholder") : undefined),
  });
  return opts.continueAnswer ? [...messages, { role: "user", content: CONTINUE_ANSWER }] : messages;
}

/**
 * What the model is asked when a person continues a stopped answer: the answer so far is its last
 * message; models differ in whether they go on with a trailing answer by themselves, so they are asked.
 */
export const CONTINUE_ANSWER = "Continue your previous answer exactly where it stopped. Do not repeat what you already wrote.";

/**
 * Earlier MCP results reach the model as they did when they were new: their text, and their images as
 * images (or a placeholder for a model without vision) — not the stored JSON with base64 in it. So do
 * knowledge searches: their numbered passages as text.
 */
function storedOutputs(ui: ParleyUIMessage[], images: ImageHandling): ToolSet {
  const tools: ToolSet = {};
  for (const m of ui) {
    for (const p of m.parts) {
      if (!isToolUIPart(p) || p.state !== "output-available" || !(isMcpResult(p.output) || isKnowledgeResult(p.output))) continue;
      tools[getToolName(p)] ??= {
        inputSchema: undefined as never,
        toModelOutput: ({ output }: { output: unknown }) =>
          isMcpResult(output)
            ? resultModelOutput(output, images)
            : isKnowledgeResult(output)
              ? knowledgeModelOutput(output)
              : { type: "json", value: output ?? null },
      } as unknown as ToolSet[string];
    }
  }
  return tools;
}

/** An attached MCP resource as the model reads it: its text as context, its image as an image (or a placeholder). */
function attachmentPart(r: ResourceData, images: ImageHandling): TextPart | FilePart {
  if (r.image && images === "attach") return { type: "file", data: r.image, mediaType: r.mimeType ?? "image/png" };
  const cut = r.truncatedFrom ? `\n[TRUNCATED: the resource has ${r.truncatedFrom.toLocaleString("en")} characters; this is the first part.]` : "";
  const body = r.image ? "[image: not shown — this model does not accept images]" : (r.text ?? "");
  return { type: "text", text: `Attached resource ${r.uri} from “${r.serverName}”${r.mimeType ? ` (${r.mimeType})` : ""}:\n${body}${cut}` };
}

/** A denied call tells the model plainly that a person denied it, and why (`[ERROR:Denied] …`). */
function explainDenials(m: ParleyUIMessage): ParleyUIMessage {
  if (m.role !== "assistant") return m;
  return {
    ...m,
    parts: m.parts.map((p) => {
      const approval = (p as { approval?: { approved?: boolean; reason?: string } }).approval;
      if (!approval || approval.approved !== false) return p;
      const who = (approval as { by?: string }).by === "admin" ? "An admin" : "The user";
      const timedOut = !(approval as { decidedBy?: string }).decidedBy && /^no decision within /.test(approval.reason ?? "");
      const why = timedOut
        ? `Nobody decided in time: ${approval.reason}.`
        : approval.reason
          ? `${who} denied this call: ${approval.reason}`
          : `${who} denied this call.`;
      return { ...p, approval: { ...approval, reason: formatToolError("Denied", why) } } as typeof p;
    }),
  };
}

/** A message the model can read: text, files or tool calls (not only errors or notices). */
function hasModelContent(m: ParleyUIMessage): boolean {
  return m.parts.some((p) => (p.type === "text" && p.text.trim() !== "") || p.type === "file" || isToolUIPart(p) || p.type === "reasoning");
}
