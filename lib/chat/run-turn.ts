// One turn: the user's new message, a regenerate, or decisions on calls waiting for approval
// (turn-start.ts) -> the model -> one UI message stream (turn-stream.ts) that feeds the store (rows as
// it streams, store-turn.ts) and the browser, through the stream registry (resume). The turn belongs
// to the server: a closed tab does not stop it, only `stopTurn` does.
import { stepCountIs, streamText, UI_MESSAGE_STREAM_HEADERS, type ToolSet } from "ai";
import type { TeamContext } from "../teams/context";
import { toolErrorText } from "../tools/error-codes";
import { invalidCallText, repairToolCall, type RepairEvent } from "../tools/repair";
import { assembleTools } from "../tools/tool-set";
import { approvalDecider } from "../tools/turn-policy";
import { getChat } from "./chats";
import { citationCollector, type CitationInput } from "./citations";
import { toModelHistory } from "./history";
import type { ParleyMetadata, ParleyUIMessage } from "./parts";
import { logStep } from "./step-log";
import { storeFeed } from "./store-feed";
import { storeTurn, type StoredTurn } from "./store-turn";
import { streamRegistry } from "./stream-registry";
import { classifyTurnError, type TurnError } from "./turn-errors";
import { withTurnSlot } from "./rate-limits";
import { prepareTurn, type PreparedTurn } from "./turn-model";
import { startTurn, type TurnRequest } from "./turn-start";
import { turnStream } from "./turn-stream";
import { answerCap } from "./answer-cap";
import { config } from "../config";

/**
 * The stream's headers. `no-transform` keeps Next's gzip off the event stream: compressing it flushed
 * zlib on every chunk (~0.1 ms CPU each) and held chunks back under load (npm run bench measured it).
 */
const STREAM_HEADERS = { ...UI_MESSAGE_STREAM_HEADERS, "cache-control": "no-cache, no-transform" };

export type { StoredTurn, TurnRequest };

export type TurnOptions = {
  /** Tools offered to the model in this turn (built-in tools; MCP tools join here). */
  tools?: ToolSet;
  /** Milliseconds without a chunk from the provider before the turn fails with ProviderTimeout. */
  idleTimeoutMs?: number;
  stepLimit?: number;
  throttleMs?: number;
  /** Resolves when the turn is fully stored (tests and benchmarks wait on it). */
  onStored?: (result: StoredTurn) => void;
  /**
   * A running-turn slot the caller holds through `withTurnSlot`, which gives it back if the turn fails
   * to start; otherwise the turn takes one itself.
   */
  slot?: () => void;
};

export function idleTimeoutMs(): number {
  return Number(process.env.PARLEY_PROVIDER_IDLE_TIMEOUT_MS || 60_000);
}

/** Starts a turn and returns the streaming response for the browser. */
export async function runTurn(ctx: TeamContext, req: TurnRequest, opts: TurnOptions = {}): Promise<Response> {
  if (opts.slot) return startStreaming(ctx, req, opts, opts.slot);
  return withTurnSlot((slot) => startStreaming(ctx, req, opts, slot));
}

/** The turn proper; `releaseSlot` is called once the turn is stored. */
async function startStreaming(ctx: TeamContext, req: TurnRequest, opts: TurnOptions, releaseSlot: () => void): Promise<Response> {
  const registry = await streamRegistry();
  const start = await startTurn(ctx, req, registry);
  const { chat, assistantId, streamId, continued } = start;
  // The turn's first rows are written while the tools are gathered and the model request goes out.
  const committed = start.commit().then(
    () => undefined,
    (err: unknown) => ({ err }),
  );
  const controller = new AbortController();
  const giveUp = async (err: unknown): Promise<never> => {
    controller.abort();
    if (!(await committed)) await start.release().catch(() => {});
    throw err;
  };

  let turn: PreparedTurn;
  const mcpCitations: CitationInput[] = [];
  try {
    // MCP tools the chat has selected, from servers that answer now (each within its connect timeout);
    // a server that is down or slow leaves a notice instead of its tools. URLs in their results are cited.
    const mcp = await assembleTools({
      teamId: ctx.team.id,
      selection: chat.toolSelection,
      decider: () => approvalDecider(ctx.user.id, new Set(continued?.blocks.filter((b) => b.status === "approval-responded").map((b) => b.toolCallId!) ?? [])),
      onCitations: (items) => mcpCitations.push(...items.map((c) => ({ ...c, origin: "mcp" as const }))),
    });
    // The model with its fallback, provider-native tools (web search), Anthropic cache breakpoints and
    // the model's providerOptions; notices (fallback, unavailable model) join the stream below.
    turn = prepareTurn(start.model, {
      messages: await toModelHistory(start.history),
      tools: { ...mcp.tools, ...opts.tools },
      idleMs: opts.idleTimeoutMs ?? idleTimeoutMs(),
      fallback: start.fallback,
      notices: mcp.notices,
    });
  } catch (err) {
    return giveUp(err);
  }
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

  // Nothing is stored or sent before the turn's rows are written (a lost race for the chat is a 409).
  const failed = await committed;
  if (failed) return giveUp(failed.err);
  registry.local.set(chat.id, controller);

  // One stream to the browser (server-sent events, resumable) and, inside turnStream, to the store.
  const feed = storeFeed();
  const events = result
    .toUIMessageStream<ParleyUIMessage>({
      // A continued answer keeps its message: the stream starts from the stored one.
      originalMessages: continued ? start.history : undefined,
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
    .pipeThrough(turnStream({ notices: turn.notices, lastError: () => lastError, stepLimit, store: feed, cap: answerCap(config().PARLEY_MAX_ANSWER_CHARS, () => controller.abort()) }));

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
    .finally(() => {
      // The chat and the slot are free before anyone hears that the turn is stored.
      registry.local.delete(chat.id);
      releaseSlot();
    })
    .then(
      (stored) => opts.onStored?.(stored),
      (err) => console.error(`[turn] chat ${chat.id}: could not finalise the message`, err),
    );

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
