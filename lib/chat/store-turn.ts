// The stored side of a turn: consumes its UI message stream (store-feed.ts) to the end (whether or not a browser
// listens), writing blocks as they change, then finalises the message: status, finish reason, model,
// usage (added up over the continuations of an answer), citations and a usage record.
import { readUIMessageStream } from "ai";
import { db } from "../db/client";
import type { Block, MessageStatus } from "../db/generated/client";
import type { TeamContext } from "../teams/context";
import { createBlockWriter } from "./block-writer";
import { storeTurnCitations } from "./citations";
import type { ParleyUIMessage } from "./parts";
import type { StoreFeed } from "./store-feed";
import { HEARTBEAT_MS } from "./recovery";

export type StoredTurn = { messageId: string; status: MessageStatus; writes: number };

export type StoreTarget = {
  ctx: TeamContext;
  chatId: string;
  assistantId: string;
  streamId: string;
  /** Read when the turn ends: the fallback's provider when it took over. */
  readonly providerId: string;
  throttleMs?: number;
  /** The answer being continued (after approvals): its message as the stream starts from it, and its blocks. */
  continued?: { message: ParleyUIMessage; blocks: Block[] };
};

export async function storeTurn(feed: StoreFeed, t: StoreTarget): Promise<StoredTurn> {
  const prisma = await db();
  const writer = createBlockWriter(prisma, t.assistantId, { throttleMs: t.throttleMs, existing: t.continued?.blocks });
  // A continued answer adds this turn's usage to what it had used before. Copied now: the stream
  // below updates the continued message in place.
  const priorUsage = { ...t.continued?.message.metadata?.usage };
  let failed = false;
  let last: ParleyUIMessage | undefined;
  const heartbeat = setInterval(() => {
    prisma.message.update({ where: { id: t.assistantId }, data: { updatedAt: new Date() } }).catch(() => {});
  }, HEARTBEAT_MS);
  try {
    for await (const snapshot of readUIMessageStream<ParleyUIMessage>({ stream: feed.readable, message: t.continued?.message, onError: () => {} })) {
      last = snapshot;
      writer.update(snapshot.parts);
    }
  } catch (err) {
    console.error(`[turn] chat ${t.chatId}: stream failed`, err);
    failed = true;
  } finally {
    clearInterval(heartbeat);
  }
  const ending = failed ? "error" : feed.ending;
  const status: MessageStatus = ending === "finish" ? "done" : ending === "abort" ? "stopped" : "error";
  const meta = last?.metadata;
  if (last && status !== "done") {
    // Text cut short by a stop or an error is final: it no longer streams.
    writer.update(last.parts.map((p) => ((p.type === "text" || p.type === "reasoning") && p.state === "streaming" ? { ...p, state: "done" } : p)));
  }
  try {
    await writer.flush();
  } catch {
    /* logged by the writer; the message still gets its status */
  }
  if (meta?.citations?.length) {
    await storeTurnCitations(t.assistantId, meta.citations).catch((err) => console.error(`[turn] chat ${t.chatId}: could not store citations`, err));
  }
  const usage = meta?.usage;
  const add = (prior: number | null | undefined, now: number | undefined) => (prior == null && now == null ? null : (prior ?? 0) + (now ?? 0));
  await prisma.message.update({
    where: { id: t.assistantId },
    data: {
      status,
      // The model that answered (the fallback's when it took over).
      ...(meta?.model ? { model: meta.model } : {}),
      finishReason: status === "done" ? (meta?.finishReason ?? null) : status === "stopped" ? "stopped" : "error",
      inputTokens: add(priorUsage?.inputTokens, usage?.inputTokens),
      outputTokens: add(priorUsage?.outputTokens, usage?.outputTokens),
      cachedInputTokens: add(priorUsage?.cachedInputTokens, usage?.cachedInputTokens),
      reasoningTokens: add(priorUsage?.reasoningTokens, usage?.reasoningTokens),
    },
  });
  if (usage && (usage.inputTokens || usage.outputTokens)) {
    await prisma.usageRecord.create({
      data: {
        teamId: t.ctx.team.id,
        userId: t.ctx.user.id,
        chatId: t.chatId,
        messageId: t.assistantId,
        providerId: t.providerId,
        model: meta?.model ?? "",
        inputTokens: usage.inputTokens ?? 0,
        outputTokens: usage.outputTokens ?? 0,
        cachedInputTokens: usage.cachedInputTokens ?? 0,
        reasoningTokens: usage.reasoningTokens ?? 0,
      },
    });
  }
  await prisma.chat.updateMany({ where: { id: t.chatId, activeStreamId: t.streamId }, data: { activeStreamId: null } });
  return { messageId: t.assistantId, status, writes: writer.stats.writes };
}
