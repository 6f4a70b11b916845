// One turn: the user's new message (or a regenerate) -> the model -> a UI message stream that goes
// three ways: to the browser, to the block writer (rows as it streams), and to the stream registry
// (resume). The turn belongs to the server: a closed tab does not stop it, only `stopTurn` does.
import crypto from "node:crypto";
import { JsonToSseTransformStream, readUIMessageStream, stepCountIs, streamText, UI_MESSAGE_STREAM_HEADERS, type ToolSet, type UIMessageChunk } from "ai";
import { db } from "../db/client";
import type { MessageStatus } from "../db/generated/client";
import { AppError, Conflict, NotFound } from "../errors";
import { resolveChatModel } from "../providers/resolve";
import type { TeamContext } from "../teams/context";
import { createBlockWriter } from "./block-writer";
import { citationCollector, storeTurnCitations, type CitationInput } from "./citations";
import { getChat } from "./chats";
import { loadModelHistory } from "./history";
import type { ParleyMetadata, ParleyUIMessage } from "./parts";
import { streamRegistry } from "./stream-registry";
import { classifyTurnError, type TurnError } from "./turn-errors";
import { endingParts, noticesAfterStart } from "./turn-stream";
import { toolErrorText } from "../tools/error-codes";
import { assembleTools } from "../tools/tool-set";
import { prepareTurn } from "./turn-model";
import { titleFrom } from "./titles";
import { HEARTBEAT_MS } from "./recovery";

export type TurnRequest = {
  chatId: string;
  /** The new user message; absent when regenerating. */
  text?: string;
  /** Regenerate: the id of the last assistant message, replaced by a new answer. */
  regenerate?: string;
  /** A Model row id chosen in the composer; remembered for the chat. */
  modelId?: string;
};

export type TurnOptions = {
  /** Tools offered to the model in this turn (built-in tools; MCP tools join here). */
  tools?: ToolSet;
  /** Milliseconds without a chunk from the provider before the turn fails with ProviderTimeout. */
  idleTimeoutMs?: number;
  stepLimit?: number;
  throttleMs?: number;
  /** Resolves when the turn is fully stored (tests and benchmarks wait on it). */
  onStored?: (result: StoredTurn) => void;
};

export type StoredTurn = { messageId: string; status: MessageStatus; writes: number };

const newId = () => crypto.randomUUID();

export function idleTimeoutMs(): number {
  return Number(process.env.PARLEY_PROVIDER_IDLE_TIMEOUT_MS || 60_000);
}

/** Starts a turn and returns the streaming response for the browser. */
export async function runTurn(ctx: TeamContext, req: TurnRequest, opts: TurnOptions = {}): Promise<Response> {
  const prisma = await db();
  const chat = await getChat(ctx, req.chatId);
  const registry = await streamRegistry();

  // Check everything that can refuse the turn before writing anything.
  if (registry.local.has(chat.id) || (chat.activeStreamId && (await registry.streams.hasExistingStream(chat.activeStreamId)) === true)) {
    throw Conflict("A reply is still being written in this chat. Wait for it or stop it first.");
  }
  const resolved = await resolveChatModel(ctx.team.id, req.modelId ?? chat.modelId);
  if (req.regenerate) {
    const last = await prisma.message.findFirst({ where: { chatId: chat.id }, orderBy: { seq: "desc" }, select: { id: true, role: true } });
    if (!last || last.id !== req.regenerate || last.role !== "assistant") throw NotFound("Only the last answer of this chat can be regenerated.");
  } else if (!req.text) {
    throw new AppError("InvalidInput", 400, "A message needs text.");
  }

  const streamId = newId();
  const claimed = await prisma.chat.updateMany({
    where: { id: chat.id, activeStreamId: chat.activeStreamId },
    data: { activeStreamId: streamId, ...(req.modelId ? { modelId: resolved.modelRowId } : {}) },
  });
  if (claimed.count !== 1) throw Conflict("A reply is still being written in this chat. Wait for it or stop it first.");

  const assistantId = newId();
  try {
    if (req.regenerate) {
      await prisma.message.delete({ where: { id: req.regenerate } });
    } else {
      await prisma.message.create({
        data: { id: newId(), chatId: chat.id, role: "user", status: "done", blocks: { create: { ordinal: 0, kind: "text", status: "done", text: req.text } } },
      });
      if (!chat.title) await prisma.chat.update({ where: { id: chat.id }, data: { title: titleFrom(req.text!) } });
    }
    await prisma.message.create({ data: { id: assistantId, chatId: chat.id, role: "assistant", status: "streaming", model: resolved.modelId } });
  } catch (err) {
    await prisma.chat.updateMany({ where: { id: chat.id, activeStreamId: streamId }, data: { activeStreamId: null } });
    throw err;
  }

  const history = await loadModelHistory(chat.id);
  const controller = new AbortController();
  registry.local.set(chat.id, controller);

  // The model with its fallback, provider-native tools (web search), Anthropic cache breakpoints and
  // the model's providerOptions; notices (fallback, unavailable model) join the stream below.
  // MCP tools the chat has selected, from servers that answer now (each within its connect timeout);
  // a server that is down or slow leaves a notice instead of its tools. URLs in their results are cited.
  const mcpCitations: CitationInput[] = [];
  const mcp = await assembleTools({
    teamId: ctx.team.id,
    selection: chat.toolSelection,
    onCitations: (items) => mcpCitations.push(...items.map((c) => ({ ...c, origin: "mcp" as const }))),
  });
  const turn = await prepareTurn(ctx.team.id, resolved, { messages: history, tools: { ...mcp.tools, ...opts.tools }, idleMs: opts.idleTimeoutMs ?? idleTimeoutMs() });
  const citations = citationCollector();
  let lastError: TurnError | undefined;
  const result = streamText({
    model: turn.model,
    messages: turn.messages,
    tools: turn.tools,
    providerOptions: turn.providerOptions as Parameters<typeof streamText>[0]["providerOptions"],
    abortSignal: controller.signal,
    maxRetries: 1,
    stopWhen: stepCountIs(opts.stepLimit ?? Number(process.env.PARLEY_STEP_LIMIT || 20)),
    // Errors reach the browser and the log through toUIMessageStream's onError below.
    onError: () => {},
  });

  const chunks = result
    .toUIMessageStream<ParleyUIMessage>({
      generateMessageId: () => assistantId,
      sendReasoning: true,
      sendSources: true,
      messageMetadata: ({ part }): ParleyMetadata | undefined => {
        // URL sources (web search) are numbered as they arrive and sent with the message metadata.
        const cited = citations.add(part) ?? (mcpCitations.length ? citations.addItems(mcpCitations.splice(0)) : undefined);
        if (cited) return { citations: cited };
        if (part.type === "start") return { status: "streaming", model: turn.active.modelId, createdAt: new Date().toISOString() };
        if (part.type === "finish") {
          const u = part.totalUsage;
          return {
            status: "done",
            model: turn.active.modelId,
            finishReason: part.finishReason,
            usage: {
              inputTokens: u.inputTokens,
              outputTokens: u.outputTokens,
              cachedInputTokens: u.inputTokenDetails?.cacheReadTokens,
              reasoningTokens: u.outputTokenDetails?.reasoningTokens,
            },
          };
        }
        return undefined;
      },
      onError: (err) => {
        // A failed tool call: its coded text (`[ERROR:<code>] message`) is what the tool block shows.
        const toolError = toolErrorText(err);
        if (toolError) return toolError;
        lastError = classifyTurnError(err);
        if (lastError.code === "Internal") console.error(`[turn] chat ${chat.id}:`, err);
        else console.warn(`[turn] chat ${chat.id}: ${lastError.code}: ${lastError.message}`);
        return lastError.message;
      },
    })
    .pipeThrough(turn.noticeParts())
    .pipeThrough(noticesAfterStart(mcp.notices))
    .pipeThrough(endingParts(() => lastError));

  const [toStore, toClient] = chunks.tee();
  void storeTurn(toStore, {
    ctx,
    chatId: chat.id,
    assistantId,
    streamId,
    // Read when the turn ends: the fallback provider when it took over.
    get providerId() {
      return turn.active.providerId;
    },
    throttleMs: opts.throttleMs,
  })
    .then((stored) => opts.onStored?.(stored))
    .catch((err) => console.error(`[turn] chat ${chat.id}: could not finalise the message`, err))
    .finally(() => registry.local.delete(chat.id));

  const sse = toClient.pipeThrough(new JsonToSseTransformStream());
  const live = await registry.streams.createNewResumableStream(streamId, () => sse);
  return new Response(live!.pipeThrough(new TextEncoderStream()), { headers: UI_MESSAGE_STREAM_HEADERS });
}

/** Consumes the turn to its end, writing blocks as they change, then finalises the message. */
async function storeTurn(
  stream: ReadableStream<UIMessageChunk>,
  t: { ctx: TeamContext; chatId: string; assistantId: string; streamId: string; providerId: string; throttleMs?: number },
): Promise<StoredTurn> {
  const prisma = await db();
  const writer = createBlockWriter(prisma, t.assistantId, { throttleMs: t.throttleMs });
  let ending: "finish" | "abort" | "error" | undefined;
  const watched = stream.pipeThrough(
    new TransformStream<UIMessageChunk, UIMessageChunk>({
      transform(chunk, c) {
        if (chunk.type === "finish") ending ??= "finish";
        else if (chunk.type === "abort") ending = "abort";
        else if (chunk.type === "error") ending = "error";
        c.enqueue(chunk);
      },
    }),
  );
  let last: ParleyUIMessage | undefined;
  const heartbeat = setInterval(() => {
    prisma.message.update({ where: { id: t.assistantId }, data: { updatedAt: new Date() } }).catch(() => {});
  }, HEARTBEAT_MS);
  try {
    for await (const snapshot of readUIMessageStream<ParleyUIMessage>({ stream: watched, onError: () => {} })) {
      last = snapshot;
      writer.update(snapshot.parts);
    }
  } catch (err) {
    console.error(`[turn] chat ${t.chatId}: stream failed`, err);
    ending = "error";
  } finally {
    clearInterval(heartbeat);
  }
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
  await prisma.message.update({
    where: { id: t.assistantId },
    data: {
      status,
      // The model that answered (the fallback's when it took over).
      ...(meta?.model ? { model: meta.model } : {}),
      finishReason: status === "done" ? (meta?.finishReason ?? null) : status === "stopped" ? "stopped" : "error",
      inputTokens: usage?.inputTokens ?? null,
      outputTokens: usage?.outputTokens ?? null,
      cachedInputTokens: usage?.cachedInputTokens ?? null,
      reasoningTokens: usage?.reasoningTokens ?? null,
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

/** Stops the running turn of a chat, on whichever instance runs it. */
export async function stopTurn(ctx: TeamContext, chatId: string): Promise<{ stopped: boolean }> {
  const chat = await getChat(ctx, chatId);
  const registry = await streamRegistry();
  if (!chat.activeStreamId && !registry.local.has(chat.id)) return { stopped: false };
  const local = registry.local.get(chat.id);
  if (local) local.abort();
  else await registry.publishStop(chat.id);
  return { stopped: true };
}

/** The live stream of a chat's running turn, replayed from its start; null when none is running. */
export async function resumeTurn(ctx: TeamContext, chatId: string): Promise<Response | null> {
  const chat = await getChat(ctx, chatId);
  if (!chat.activeStreamId) return null;
  const registry = await streamRegistry();
  const stream = await registry.streams.resumeExistingStream(chat.activeStreamId);
  if (!stream) return null;
  return new Response(stream.pipeThrough(new TextEncoderStream()), { headers: UI_MESSAGE_STREAM_HEADERS });
}
