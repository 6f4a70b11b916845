// The stored side of a turn: folds its UI message stream (store-feed.ts) as it passes, to the end (whether or
// not a browser listens), writing blocks as they change, then finalises the message: status, finish reason, model,
// usage (added up over the continuations of an answer), citations and a usage record. No block is
// left open: a tool call the stream did not end is aborted here too (tool-states.ts).
// When the database refuses writes, the block writer retries while the answer streams; if it gives up,
// the message is marked interrupted ("not-saved") as soon as the database takes a write again
// (recovery.ts) and the turn reports `saved: false` (the browser is told).
import type { Block, MessageStatus, PrismaClient } from "../db/generated/client";
import type { TeamContext } from "../teams/team-context";
import { createBlockWriter, type RetryPolicy } from "./block-writer";
import { storeTurnCitations } from "./citations";
import { messageFold } from "./message-fold";
import type { ParleyMetadata, ParleyUIMessage } from "./message-types";
import type { StoreFeed } from "./store-feed";
import { HANDED_OVER_REASON } from "./handed-over";
import { heartbeatMs, markNotSaved, withRetry } from "./recovery";
import { abortOpenCalls } from "./tool-states";
import { addCost } from "../usage/cost";
import { priceAnswer, recordUsage } from "../usage/usage-record";

export type StoredTurn = {
  messageId: string;
  status: MessageStatus;
  writes: number;
  /** Everything streamed is stored. */
  saved: boolean;
  /** The answer's cost so far in US dollars (continuations added), at the prices of the moment; null: unknown. */
  cost?: number | null;
  /** The answer's tokens so far (continuations added), as stored. */
  usage?: Totals;
};

type Totals = { inputTokens: number | null; outputTokens: number | null; cachedInputTokens: number | null; reasoningTokens: number | null };

/**
 * Why a turn is stopped other than by a person: the server stops, and the answer is kept as
 * interrupted (`shutdown`), to be continued by another instance (`handoff`).
 */
export type StopReason = "shutdown" | "handoff";

/** How the store reaches the database (the turn's dependencies; tests inject failing clients). */
export type StoreDeps = { db: () => Promise<PrismaClient>; throttleMs: number; retry: RetryPolicy };

export type StoreTarget = {
  ctx: TeamContext;
  chatId: string;
  assistantId: string;
  streamId: string;
  /** The answer being continued (after approvals): its message as the stream starts from it, and its blocks. */
  continued?: { message: ParleyUIMessage; blocks: Block[] };
  /** The turn's budget reservation (lib/usage/budgets.ts), released when its usage is recorded. */
  reservationId?: string | null;
  /** Runs once the blocks are stored, before the message is finalised (who decides waiting calls). */
  afterBlocks?: (prisma: PrismaClient) => Promise<void>;
  /** Why an abort is the server stopping (stop-turns.ts): the answer is then `interrupted` (and handed over). */
  interrupted?: () => StopReason | undefined;
};

const METADATA_CHUNKS = new Set(["start", "finish", "message-metadata"]);

export async function storeTurn(feed: StoreFeed, t: StoreTarget, deps: StoreDeps): Promise<StoredTurn> {
  const prisma = await deps.db();
  const writer = createBlockWriter(prisma, t.assistantId, { throttleMs: deps.throttleMs, existing: t.continued?.blocks, retry: deps.retry });
  // A continued answer adds this turn's usage to what it had used before. This turn's usage is read from
  // its own finish chunk (all steps of this turn, AI SDK 7's totalUsage), never from the folded metadata:
  // that starts from the stored message, so a field this turn leaves out (an Anthropic answer without
  // reasoning tokens, a turn that ends without finishing) would still hold the earlier total.
  const priorUsage = { ...t.continued?.message.metadata?.usage };
  let usage: ParleyMetadata["usage"];
  let failed = false;
  // The stream folded into the answer as it arrives (message-fold.ts): no copy of the message per chunk.
  const fold = messageFold(t.assistantId, t.continued?.message);
  /** The stream changed the message at all (else a stop or error leaves a continued answer as it was). */
  let touched = false;
  /** A chunk is folded in: the part it changed goes to the writer. */
  const took = (chunk: { type: string }, changed: number) => {
    if (changed >= 0) writer.update(fold.message.parts, changed);
    touched ||= changed >= 0 || METADATA_CHUNKS.has(chunk.type);
  };
  const heartbeat = setInterval(() => {
    prisma.message.update({ where: { id: t.assistantId }, data: { updatedAt: new Date() } }).catch(() => {});
  }, heartbeatMs());
  try {
    await feed.consume((chunk) => {
      if (chunk.type === "finish") usage = (chunk.messageMetadata as ParleyMetadata | undefined)?.usage;
      const folded = fold.apply(chunk);
      if (folded instanceof Promise) return folded.then(({ changed }) => took(chunk, changed));
      took(chunk, folded.changed);
    });
  } catch (err) {
    console.error(`[turn] chat ${t.chatId}: stream failed`, err);
    failed = true;
  } finally {
    clearInterval(heartbeat);
  }
  const ending = failed ? "error" : feed.ending;
  const status: MessageStatus = ending === "finish" ? "done" : ending !== "abort" ? "error" : t.interrupted?.() ? "interrupted" : "stopped";
  const last: ParleyUIMessage | undefined = touched ? fold.message : undefined;
  const meta = last?.metadata;
  if (last && status !== "done") {
    // Text cut short by a stop or an error is final: it no longer streams; nor does any tool call.
    const closed = last.parts.map((p) => ((p.type === "text" || p.type === "reasoning") && p.state === "streaming" ? { ...p, state: "done" as const } : p));
    writer.update(abortOpenCalls(closed, status === "stopped" || status === "interrupted" ? status : "failed"));
  }
  const saved = await writer.flush().then(
    () => true,
    () => false, // logged by the writer
  );
  if (!saved) {
    // What the browser saw is not all stored: the message says so as soon as the database is back.
    markNotSaved(deps.db, t.assistantId, t.chatId, t.streamId, deps.retry);
    return { messageId: t.assistantId, status: "interrupted", writes: writer.stats.writes, saved };
  }
  if (t.afterBlocks)
    await withRetry(deps.retry, () => t.afterBlocks!(prisma)).catch((err) =>
      console.error(`[turn] chat ${t.chatId}: could not store who decides its calls`, err),
    );
  if (meta?.citations?.length) {
    await storeTurnCitations(t.assistantId, meta.citations).catch((err) => console.error(`[turn] chat ${t.chatId}: could not store citations`, err));
  }
  const add = (prior: number | null | undefined, now: number | undefined) => (prior == null && now == null ? null : (prior ?? 0) + (now ?? 0));
  // Priced now, at the answering model's prices of this moment (lib/usage/usage-record.ts).
  const priced = await priceAnswer(prisma, meta?.providerId, meta?.model, usage).catch(() => undefined);
  const cost = addCost(priorUsage?.cost, priced?.cost);
  const totals: Totals = {
    inputTokens: add(priorUsage?.inputTokens, usage?.inputTokens),
    outputTokens: add(priorUsage?.outputTokens, usage?.outputTokens),
    cachedInputTokens: add(priorUsage?.cachedInputTokens, usage?.cachedInputTokens),
    reasoningTokens: add(priorUsage?.reasoningTokens, usage?.reasoningTokens),
  };
  // The message's end and the chat's release in one write: whoever sees the answer ended (a reload, the
  // instance taking over a handed-over answer) also sees its chat free. Usage is recorded after it.
  const finalised = await withRetry(deps.retry, () =>
    prisma.$transaction([
      prisma.message.update({
        where: { id: t.assistantId },
        data: {
          status,
          // The model that answered (the fallback's when it took over).
          ...(meta?.model ? { model: meta.model } : {}),
          finishReason:
            status === "done" ? (meta?.finishReason ?? null) : status === "error" ? "error" : t.interrupted?.() === "handoff" ? HANDED_OVER_REASON : status,
          ...totals,
          cost,
        },
      }),
      prisma.chat.updateMany({ where: { id: t.chatId, activeStreamId: t.streamId }, data: { activeStreamId: null } }),
    ]),
  ).then(
    () => true,
    (err: unknown) => {
      console.error(`[turn] chat ${t.chatId}: could not finalise the message`, err);
      return false;
    },
  );
  if (!finalised) {
    markNotSaved(deps.db, t.assistantId, t.chatId, t.streamId, deps.retry);
    return { messageId: t.assistantId, status: "interrupted", writes: writer.stats.writes, saved: false };
  }
  if (priced) {
    const record = {
      teamId: t.ctx.team.id,
      userId: t.ctx.user.id,
      chatId: t.chatId,
      messageId: t.assistantId,
      providerId: meta?.providerId ?? null,
      model: meta?.model ?? "",
    };
    // The answer is stored whatever happens here; the turn's budget hold is released when it ends (turn.ts).
    await recordUsage(prisma, { ...record, priced, reservationId: t.reservationId }).catch((err: unknown) =>
      console.error(`[turn] chat ${t.chatId}: could not record its usage`, err),
    );
  }
  return { messageId: t.assistantId, status, writes: writer.stats.writes, saved: true, cost, usage: totals };
}
