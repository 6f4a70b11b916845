// One turn: the user's new message, a regenerate, or decisions on calls waiting for approval -> the
// model -> a UI message stream that goes three ways: to the browser, to the block writer (rows as it
// streams, store-turn.ts), and to the stream registry (resume). The turn belongs to the server: a
// closed tab does not stop it, only `stopTurn` does.
import crypto from "node:crypto";
import { stepCountIs, streamText, UI_MESSAGE_STREAM_HEADERS, type ToolSet } from "ai";

/**
 * The stream's headers. `no-transform` keeps Next's gzip off the event stream: compressing it flushed
 * zlib on every chunk (~0.1 ms CPU each) and held chunks back under load (npm run bench measured it).
 */
const STREAM_HEADERS = { ...UI_MESSAGE_STREAM_HEADERS, "cache-control": "no-cache, no-transform" };
import { db } from "../db/client";
import { AppError, Conflict, NotFound } from "../errors";
import { resolveChatModel } from "../providers/resolve";
import type { TeamContext } from "../teams/context";
import { recordDecisions, supersedePending, type Decision } from "./approvals";
import { citationCollector, type CitationInput } from "./citations";
import { getChat } from "./chats";
import { loadTurnHistory } from "./history";
import type { ParleyMetadata, ParleyUIMessage } from "./parts";
import { streamRegistry } from "./stream-registry";
import { classifyTurnError, type TurnError } from "./turn-errors";
import { turnStream } from "./turn-stream";
import { storeFeed } from "./store-feed";
import { toolErrorText } from "../tools/error-codes";
import { invalidCallText, repairToolCall, type RepairEvent } from "../tools/repair";
import { assembleTools } from "../tools/tool-set";
import { approvalDecider } from "../tools/turn-policy";
import { prepareTurn } from "./turn-model";
import { titleFrom } from "./titles";
import { logStep } from "./step-log";
import { storeTurn, type StoredTurn } from "./store-turn";

export type TurnRequest = {
  chatId: string;
  /** The new user message; absent when regenerating. */
  text?: string;
  /** Regenerate: the id of the last assistant message, replaced by a new answer. */
  regenerate?: string;
  /** A Model row id chosen in the composer; remembered for the chat. */
  modelId?: string;
  /** Decisions on the calls of the last answer that wait for approval; the answer then continues. */
  decisions?: Decision[];
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

export type { StoredTurn };

const newId = (): string => crypto.randomUUID();

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
  } else if (!req.text && !req.decisions?.length) {
    throw new AppError("InvalidInput", 400, "A message needs text.");
  }

  const streamId = newId();
  const claimed = await prisma.chat.updateMany({
    where: { id: chat.id, activeStreamId: chat.activeStreamId },
    data: { activeStreamId: streamId, ...(req.modelId ? { modelId: resolved.modelRowId } : {}) },
  });
  if (claimed.count !== 1) throw Conflict("A reply is still being written in this chat. Wait for it or stop it first.");

  // The answer this turn writes: the one waiting for approval (continued), or a new one.
  let assistantId = newId();
  let continuing = false;
  try {
    if (req.decisions?.length) {
      assistantId = (await recordDecisions(ctx, chat.id, req.decisions)).messageId;
      continuing = true;
      await prisma.message.update({ where: { id: assistantId }, data: { status: "streaming" } });
    } else {
      if (req.regenerate) {
        await prisma.message.delete({ where: { id: req.regenerate } });
      } else {
        await supersedePending(ctx, chat.id);
        await prisma.message.create({
          data: { id: newId(), chatId: chat.id, role: "user", status: "done", blocks: { create: { ordinal: 0, kind: "text", status: "done", text: req.text } } },
        });
        if (!chat.title) await prisma.chat.update({ where: { id: chat.id }, data: { title: titleFrom(req.text!) } });
      }
      await prisma.message.create({ data: { id: assistantId, chatId: chat.id, role: "assistant", status: "streaming", model: resolved.modelId } });
    }
  } catch (err) {
    await prisma.chat.updateMany({ where: { id: chat.id, activeStreamId: streamId }, data: { activeStreamId: null } });
    throw err;
  }

  const history = await loadTurnHistory(chat.id);
  const continued = continuing
    ? { message: history.ui[history.ui.length - 1], blocks: await prisma.block.findMany({ where: { messageId: assistantId }, orderBy: { ordinal: "asc" } }) }
    : undefined;
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
    decider: () => approvalDecider(ctx.user.id, new Set(continued?.blocks.filter((b) => b.status === "approval-responded").map((b) => b.toolCallId!) ?? [])),
    onCitations: (items) => mcpCitations.push(...items.map((c) => ({ ...c, origin: "mcp" as const }))),
  });
  const turn = await prepareTurn(ctx.team.id, resolved, { messages: history.model, tools: { ...mcp.tools, ...opts.tools }, idleMs: opts.idleTimeoutMs ?? idleTimeoutMs(), notices: mcp.notices });
  const citations = citationCollector();
  let lastError: TurnError | undefined;
  const stepLimit = opts.stepLimit ?? Number(process.env.PARLEY_STEP_LIMIT || 20);
  const repairs: RepairEvent[] = [];
  const startedAt = Date.now();
  let stepStartedAt = startedAt;
  const result = streamText({
    model: turn.model,
    messages: turn.messages,
    tools: turn.tools,
    providerOptions: turn.providerOptions as Parameters<typeof streamText>[0]["providerOptions"],
    abortSignal: controller.signal,
    maxRetries: 1,
    stopWhen: stepCountIs(stepLimit),
    experimental_repairToolCall: repairToolCall(turn.model, (e) => repairs.push(e)),
    // One structured log line per step, so a tool failure is never invisible to the operator.
    onStepFinish: (step) => {
      logStep({ chatId: chat.id, messageId: assistantId, step: step.stepNumber ?? 0, durationMs: Date.now() - stepStartedAt, result: step, repairs: repairs.splice(0) });
      stepStartedAt = Date.now();
    },
    // Errors reach the browser and the log through toUIMessageStream's onError below.
    onError: () => {},
  });

  // One stream to the browser (server-sent events, resumable) and, inside turnStream, to the store.
  const feed = storeFeed();
  const events = result
    .toUIMessageStream<ParleyUIMessage>({
      // A continued answer keeps its message: the stream starts from the stored one.
      originalMessages: continued ? history.ui : undefined,
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
        const toolError = toolErrorText(err) ?? invalidCallText(err);
        if (toolError) return toolError;
        lastError = classifyTurnError(err);
        if (lastError.code === "Internal") console.error(`[turn] chat ${chat.id}:`, err);
        else console.warn(`[turn] chat ${chat.id}: ${lastError.code}: ${lastError.message}`);
        return lastError.message;
      },
    })
    .pipeThrough(turnStream({ notices: turn.notices, lastError: () => lastError, stepLimit, store: feed }));

  void storeTurn(feed, {
    ctx,
    chatId: chat.id,
    assistantId,
    streamId,
    continued,
    // Read when the turn ends: the fallback provider when it took over.
    get providerId() {
      return turn.active.providerId;
    },
    throttleMs: opts.throttleMs,
  })
    .then((stored) => opts.onStored?.(stored))
    .catch((err) => console.error(`[turn] chat ${chat.id}: could not finalise the message`, err))
    .finally(() => registry.local.delete(chat.id));

  const live = await registry.streams.createNewResumableStream(streamId, () => events);
  return new Response(live!.pipeThrough(new TextEncoderStream()), { headers: STREAM_HEADERS });
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
  return new Response(stream.pipeThrough(new TextEncoderStream()), { headers: STREAM_HEADERS });
}
