// A chat's history from the database: stored messages and blocks -> UI messages (for the browser,
// in pages from the newest) and -> model messages (for the next turn). The client never supplies
// history.
import { convertToModelMessages, type ModelMessage } from "ai";
import { db } from "../db/client";
import type { Block, Citation, Message } from "../db/generated/client";
import { citationView } from "./citations";
import { formatToolError } from "../tools/error-codes";
import { blocksToParts, type ParleyMetadata, type ParleyUIMessage } from "./parts";

export const HISTORY_PAGE_SIZE = 50;

type MessageWithBlocks = Message & { blocks: Block[]; citations?: Citation[] };

function toUIMessage(m: MessageWithBlocks): ParleyUIMessage {
  const metadata: ParleyMetadata = { status: m.status, createdAt: m.createdAt.toISOString() };
  if (m.model) metadata.model = m.model;
  if (m.finishReason) metadata.finishReason = m.finishReason;
  if (m.inputTokens != null || m.outputTokens != null) {
    metadata.usage = {
      inputTokens: m.inputTokens ?? undefined,
      outputTokens: m.outputTokens ?? undefined,
      cachedInputTokens: m.cachedInputTokens ?? undefined,
      reasoningTokens: m.reasoningTokens ?? undefined,
    };
  }
  if (m.citations?.length) metadata.citations = m.citations.map(citationView);
  return { id: m.id, role: m.role, metadata, parts: blocksToParts(m.blocks) };
}

const withBlocks = { blocks: { orderBy: { ordinal: "asc" as const } }, citations: { orderBy: { ordinal: "asc" as const } } };

/** A page of messages, oldest first, ending just before `beforeSeq` (or at the newest). */
export async function loadMessagePage(chatId: string, opts: { beforeSeq?: number; limit?: number } = {}) {
  const prisma = await db();
  const limit = opts.limit ?? HISTORY_PAGE_SIZE;
  const rows = await prisma.message.findMany({
    where: { chatId, ...(opts.beforeSeq !== undefined ? { seq: { lt: opts.beforeSeq } } : {}) },
    include: withBlocks,
    // Not joined: in a chat of 2,000 messages, PostgreSQL built every message's blocks before it
    // sorted and cut the page (a page of 50 took ~200 ms joined, ~15 ms in queries of their own).
    relationLoadStrategy: "query",
    orderBy: { seq: "desc" },
    take: limit + 1,
  });
  const hasMore = rows.length > limit;
  const page = rows.slice(0, limit).reverse();
  return { messages: page.map(toUIMessage), hasMore, firstSeq: page[0]?.seq };
}

/**
 * The conversation before a turn, oldest first, as UI messages (a continued answer resumes its last
 * one). `exclude` leaves out rows by id: the answer being regenerated, or the turn's own new rows
 * when they may already be written.
 */
export async function loadHistory(chatId: string, opts: { exclude?: string[] } = {}): Promise<ParleyUIMessage[]> {
  const prisma = await db();
  // Two reads side by side, put together here: the messages with their (few) citations joined in, and
  // the blocks by their chat rather than by a list of thousands of message ids. Joined in, the blocks
  // doubled PostgreSQL's time for 2,000 messages; the citations cost less joined than as a query of
  // their own (2,000 messages on PostgreSQL: ~80 ms instead of ~90; a short chat: ~0.6 ms less CPU).
  const message = { chatId, ...(opts.exclude?.length ? { id: { notIn: opts.exclude } } : {}) };
  const [rows, blocks] = await Promise.all([
    prisma.message.findMany({ where: message, orderBy: { seq: "asc" }, include: { citations: { orderBy: { ordinal: "asc" } } } }),
    prisma.block.findMany({ where: { message }, orderBy: { ordinal: "asc" } }),
  ]);
  const blocksOf = groupBy(blocks, (b) => b.messageId);
  return rows.map((m) => toUIMessage({ ...m, blocks: blocksOf.get(m.id) ?? [] }));
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
 * hold only errors or notices.
 */
export function toModelHistory(ui: ParleyUIMessage[]): Promise<ModelMessage[]> {
  return convertToModelMessages(ui.filter(hasModelContent).map(explainDenials), { ignoreIncompleteToolCalls: true });
}

/** A denied call tells the model plainly that a person denied it, and why (`[ERROR:Denied] …`). */
function explainDenials(m: ParleyUIMessage): ParleyUIMessage {
  if (m.role !== "assistant") return m;
  return {
    ...m,
    parts: m.parts.map((p) => {
      const approval = (p as { approval?: { approved?: boolean; reason?: string } }).approval;
      if (!approval || approval.approved !== false) return p;
      const why = approval.reason ? `The user denied this call: ${approval.reason}` : "The user denied this call.";
      return { ...p, approval: { ...approval, reason: formatToolError("Denied", why) } } as typeof p;
    }),
  };
}

/** A message the model can read: text, files or tool calls (not only errors or notices). */
function hasModelContent(m: ParleyUIMessage): boolean {
  return m.parts.some((p) => (p.type === "text" && p.text.trim() !== "") || p.type === "file" || p.type.startsWith("tool-") || p.type === "dynamic-tool" || p.type === "reasoning");
}
