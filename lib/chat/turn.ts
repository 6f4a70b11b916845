// One turn of a chat, from request to stored answer: the user's new message, a new version (a
// regenerated answer, an edited question; see branches.ts), Continue after Stop, or decisions on calls
// waiting for approval. Read top to bottom, `runTurn` is the lifecycle:
//
//   slot      a place among the turns this process runs at once (turn-slots.ts; 503 when full)
//   load      who asks and what (the caller's `input`), the chat, its models, its history (turn-load.ts)
//   claim     the turn's first rows, in one transaction (409 when another turn has the chat)
//   prepare   the tools (MCP servers that answer now) and the model with its fallback (turn-model.ts)
//   stream    streamText -> one UI message stream (turn-stream.ts) to the browser, resumable, and to
//   finalise  the store (store-turn.ts), which writes blocks as they come and then the message
//   release   the chat and the slot, once the answer is stored (or when any step before fails)
//
// The turn belongs to the server: a closed tab does not stop it, only `stopTurn` does. Everything the
// turn has to tell (notices, the fallback taking over, errors, aborted tool calls) travels as parts of
// its stream; nothing is shared with callbacks. Tests and the benchmark inject through `TurnDeps`.
import { context } from "@opentelemetry/api";
import { isStepCount, streamText, toUIMessageStream, UI_MESSAGE_STREAM_HEADERS, type ToolSet } from "ai";
import { config } from "../config";
import { answerCap } from "./answer-cap";
import { stepsLeft } from "./answer-steps";
import { db } from "../db/client";
import type { TeamContext } from "../teams/team-context";
import { toolErrorText } from "../tools/error-codes";
import { invalidCallText, repairToolCall, type RepairEvent } from "../tools/repair";
import { assembleTools } from "../tools/tool-set";
import { approvalDecider, type CallVerdict } from "../tools/turn-policy";
import { chatAllowedTools } from "../tools/preferences";
import { markApprovalRequests } from "./approvals";
import { DEFAULT_RETRY } from "./block-writer";
import { getChat } from "./chats";
import { viewableChat } from "../sharing/access";
import { filesForModel } from "../attachments/model-files";
import { citationCollector } from "./citations";
import { askOwner } from "./elicitations";
import { toModelHistory } from "./history";
import type { ParleyMetadata, ParleyUIMessage } from "./message-types";
import { replayText } from "./message-replay";
import { logStep } from "./step-log";
import { storeFeed } from "./store-feed";
import { storeTurn, type StoreDeps, type StoredTurn } from "./store-turn";
import { systemPrompt } from "./system-prompt";
import { streamRegistry, type LocalTurn, type Registry, type StopReason } from "./stream-registry";
import { classifyTurnError, turnErrorText } from "./turn-errors";
import { claimTurn, loadTurn, releaseChat, withQuestion, type ClaimedTurn, type TurnRequest } from "./turn-load";
import { fallbackNews, prepareTurn } from "./turn-model";
import { moveToolImages, toolImageMode } from "../providers/tool-images";
import { processTurnSlots, type TurnSlots } from "./turn-slots";
import { sseBytes } from "./sse-bytes";
import { turnStream, type OpenCall } from "./turn-stream";
import { isFinal } from "./tool-states";
import { modelTitle, storeModelTitle } from "./titles";
import { holdTurnBudget, releaseHold } from "../usage/budgets";
import { metrics } from "../observability/metrics";
import { aiTelemetry, failTurnSpan, startTurnSpan, storedTraceOf, tracingEnabled, traceToStore, TURN_SPAN } from "../observability/tracing";

export type { TurnRequest };

/**
 * The stream's headers. `no-transform` keeps Next's gzip off the event stream: compressing it flushed
 * zlib on every chunk (~0.1 ms CPU each) and held chunks back under load (npm run bench measured it).
 */
const STREAM_HEADERS = { ...UI_MESSAGE_STREAM_HEADERS, "cache-control": "no-cache, no-transform" };

/** Who asks, and what: read by the caller (session, body, rate limit) once the turn has its slot. */
export type TurnInput = { ctx: TeamContext; request: TurnRequest };

/** What a turn uses from outside; `turnDeps()` gives the app's, tests replace parts. */
export type TurnDeps = {
  slots: TurnSlots;
  registry: () => Promise<Registry>;
  /** The tools a turn offers: the chat's MCP tools (tool-set.ts), with their notices and citations. */
  tools: typeof assembleTools;
  /** Built-in tools offered besides (none in the app). */
  extraTools?: ToolSet;
  stepLimit: () => number;
  idleTimeoutMs: () => number;
  /** The most text, reasoning and tool input one answer may write (answer-cap.ts). */
  maxAnswerChars: () => number;
  /** How a chat's model names the chat after its first answer (titles.ts). */
  nameChat: typeof modelTitle;
  store: StoreDeps;
  /** Checks the member's budgets and holds one answer's worth (lib/usage/budgets.ts). */
  budgets: typeof holdTurnBudget;
};

export function turnDeps(overrides: Partial<TurnDeps> = {}): TurnDeps {
  return {
    slots: processTurnSlots(),
    registry: streamRegistry,
    tools: assembleTools,
    stepLimit: () => config().PARLEY_STEP_LIMIT,
    idleTimeoutMs: () => config().PARLEY_PROVIDER_IDLE_TIMEOUT_MS,
    maxAnswerChars: () => config().PARLEY_MAX_ANSWER_CHARS,
    nameChat: modelTitle,
    store: { db, throttleMs: 150, retry: DEFAULT_RETRY },
    budgets: holdTurnBudget,
    ...overrides,
  };
}

/** A started turn: its response for the browser, and the stored answer once the turn has ended. */
export type Turn = { response: Response; stored: Promise<StoredTurn> };

export async function runTurn(input: () => Promise<TurnInput>, deps: TurnDeps = turnDeps()): Promise<Turn> {
  // slot: taken first, so a server at capacity turns a request away before it spends anything on it.
  const slot = await deps.slots.take();
  let release = () => slot.release();
  let releaseBudget = () => {};
  try {
    // load
    const { ctx, request } = await input();
    const registry = await deps.registry();
    const loaded = await loadTurn(ctx, request, registry);
    // budget: a used-up budget refuses the turn before anything is written (402/429 with the reason).
    const { model: m } = loaded;
    const hold = await deps.budgets(await db(), {
      teamId: ctx.team.id,
      userId: ctx.user.id,
      modelRowId: m.modelRowId,
      modelName: m.displayName,
      prices: m.prices,
    });
    releaseBudget = () =>
      void db()
        .then((p) => releaseHold(p, hold.reservationId))
        .catch(() => {});

    // claim: a new message's rows are written while the tools are gathered and the model is called.
    const claiming = claimTurn(ctx, loaded);
    const failedClaim = claiming.then(
      () => undefined,
      (err: unknown) => ({ err }),
    );
    const controller = new AbortController();
    // Stop reaches the turn from the moment it holds its chat (while its tools are still gathered, which
    // can take a while on a cold server), not only once it streams.
    let ended!: () => void;
    /** The server stops (stop-turns.ts): the answer ends as interrupted, not as stopped. */
    let interrupted: StopReason | undefined;
    const local: LocalTurn = {
      abort: (reason) => {
        interrupted ??= reason;
        controller.abort();
      },
      ended: new Promise<void>((r) => (ended = r)),
      chatId: loaded.chat.id,
      messageId: loaded.assistantId,
    };
    const unregister = () => {
      if (registry.local.get(loaded.chat.id) === local) registry.local.delete(loaded.chat.id);
      ended();
    };
    void claiming.then(
      (c) => registry.local.set(loaded.chat.id, Object.assign(local, { messageId: c.assistantId })),
      () => {},
    );
    let continuedId: string | undefined;
    release = () => {
      controller.abort();
      void failedClaim.then((f) => {
        if (f) return;
        unregister();
        return releaseChat(loaded, continuedId).catch(() => {});
      });
      slot.release();
    };
    const claimed: ClaimedTurn = loaded.claimFirst
      ? await claiming
      : { history: withQuestion(loaded.history, loaded), assistantId: loaded.assistantId, stepsTaken: 0 };
    if (claimed.continued) continuedId = claimed.assistantId;
    const { continued, assistantId } = claimed;

    // prepare: MCP tools the chat has selected, from servers that answer now (each within its connect
    // timeout; one that does not leaves a notice), and the model with its fallback, provider-native
    // tools, cache breakpoints and providerOptions.
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
    const mcp = await deps.tools({
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
    // The step limit counts every step of the answer, approvals included: a continued answer gets what is left (answer-steps.ts).
    const stepLimit = deps.stepLimit();
    const stepsBefore = claimed.stepsTaken;
    // Attachments: as files for a model that reads them, else as their text, with a notice (lib/attachments).
    const files = await filesForModel(claimed.history, loaded.model);
    const prepared = prepareTurn(loaded.model, {
      messages: await toModelHistory(files.history, { continueAnswer: !!loaded.request.continue, images }),
      system: systemPrompt({ name: ctx.user.name, instructions: loaded.instructions }, loaded.projectInstructions),
      tools: { ...mcp.tools, ...deps.extraTools },
      idleMs: deps.idleTimeoutMs(),
      fallback: loaded.fallback,
      notices: [...mcp.notices, ...(hold.warning ? [hold.warning] : []), ...files.notices],
    });

    // stream
    const repairs: RepairEvent[] = [];
    let stepStartedAt = Date.now();
    // Traced when tracing is on (lib/observability/tracing.ts): the AI SDK's spans nest in the turn's; a
    // continuation (after decisions) links to the span of the turn that asked, stored with the answer.
    const follows =
      continued && tracingEnabled()
        ? storedTraceOf((await (await db()).message.findUnique({ where: { id: assistantId }, select: { metadata: true } }))?.metadata)
        : undefined;
    const traced = startTurnSpan({ model: prepared.answering.modelId, provider: m.providerName, chatId: loaded.chat.id, follows });
    const result = context.with(traced.ctx, () =>
      streamText({
        model: prepared.model,
        // The system prompt is the server's own (the member's instructions, cache-marked for Anthropic); the
        // history, read from the database, holds only user and assistant messages.
        instructions: prepared.instructions,
        messages: prepared.messages,
        tools: prepared.tools,
        providerOptions: prepared.providerOptions as Parameters<typeof streamText>[0]["providerOptions"],
        abortSignal: controller.signal,
        maxRetries: 1,
        stopWhen: isStepCount(stepsLeft(stepLimit, stepsBefore)),
        prepareStep: imageMode === "user-message" ? ({ messages }) => ({ messages: moveToolImages(messages) }) : undefined,
        // Repairs are logged with the step they happened in.
        repairToolCall: repairToolCall(prepared.model, (e) => repairs.push(e)),
        onStepEnd: (step) => {
          logStep({
            chatId: loaded.chat.id,
            messageId: assistantId,
            step: step.stepNumber ?? 0,
            durationMs: Date.now() - stepStartedAt,
            result: step,
            repairs: repairs.splice(0),
          });
          stepStartedAt = Date.now();
        },
        // Errors reach the browser and the log through toUIMessageStream's onError below.
        onError: () => {},
        telemetry: aiTelemetry(TURN_SPAN),
      }),
    );

    // Nothing is stored or sent before the turn's rows are written (a lost race for the chat is a 409).
    await claiming;

    // finalise: the store reads the same stream as the browser and ends the turn once it is stored.
    const feed = storeFeed();
    const stored = storeTurn(
      feed,
      {
        ctx,
        chatId: loaded.chat.id,
        assistantId,
        streamId: loaded.streamId,
        continued,
        reservationId: hold.reservationId,
        afterBlocks: async (prisma) => {
          await markApprovalRequests(prisma, assistantId, verdicts, new Date(), { teamId: ctx.team.id, userId: ctx.user.id, chatId: loaded.chat.id });
          const trace = traceToStore(traced.span);
          if (!trace) return;
          // Beside what else the answer keeps there (answer-steps.ts's stepsFrom).
          const row = await prisma.message.findUnique({ where: { id: assistantId }, select: { metadata: true } });
          await prisma.message.update({
            where: { id: assistantId },
            data: { metadata: { ...((row?.metadata as Record<string, unknown> | null) ?? {}), trace } },
          });
        },
        interrupted: () => interrupted,
      },
      deps.store,
    );
    metrics().turns.inc({ outcome: "started" });
    metrics().activeStreams.inc();
    void stored
      .then((s) => {
        traced.span.setAttributes({ "parley.turn.status": s.status, ...(s.cost != null ? { "parley.cost.usd": s.cost } : {}) });
        if (s.status === "error" || s.status === "interrupted") failTurnSpan(traced.span, `the answer ended: ${s.status}`);
      })
      .catch((err) => {
        failTurnSpan(traced.span, "could not finalise the message");
        console.error(`[turn] chat ${loaded.chat.id}: could not finalise the message`, err);
      })
      // release: the chat, the slot and the budget's hold are free before anyone hears that the turn is stored.
      .finally(() => {
        unregister();
        slot.release();
        releaseBudget();
        metrics().activeStreams.dec();
        traced.span.end();
      });
    const open: OpenCall[] = (continued?.message.parts ?? []).flatMap((p) => {
      const call = p as OpenCall & { type: string };
      return call.toolCallId && !isFinal(call) ? [{ toolCallId: call.toolCallId, state: call.state, approval: call.approval }] : [];
    });
    const events = toUIMessageStream<ToolSet, ParleyUIMessage>({
      stream: result.stream,
      // A continued answer keeps its message: the stream starts from the stored one.
      originalMessages: continued ? claimed.history : undefined,
      generateMessageId: () => assistantId,
      sendReasoning: true,
      sendSources: true,
      messageMetadata: ({ part }): ParleyMetadata | undefined => {
        // URL sources (web search) and cited MCP results are numbered as they arrive.
        const cited = citations.take(part);
        if (cited) return { citations: cited };
        if (part.type === "start")
          return {
            status: "streaming",
            ...modelOf(prepared.answering),
            createdAt: new Date().toISOString(),
            ...(loaded.question ? { questionId: loaded.question.id } : {}),
          };
        if (part.type === "start-step") {
          const news = fallbackNews(part.warnings);
          return news && { ...modelOf(news), fellBack: news.notice };
        }
        if (part.type === "finish") {
          const u = part.totalUsage;
          return {
            status: "done",
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
        const turnError = classifyTurnError(err);
        if (turnError.code === "Internal") console.error(`[turn] chat ${loaded.chat.id}:`, err);
        else console.warn(`[turn] chat ${loaded.chat.id}: ${turnError.code}: ${turnError.message}`);
        return turnErrorText(turnError);
      },
    })
      // The one stage for answer-wide stages such as caps goes here, before turnStream (it feeds the store).
      .pipeThrough(
        turnStream({
          notices: prepared.notices,
          stepLimit,
          stepsBefore,
          store: feed,
          stored,
          open,
          interrupted: () => interrupted,
          cap: answerCap(deps.maxAnswerChars(), () => controller.abort()),
          title: loaded.firstTitle ? chatTitle(loaded, loaded.firstTitle, deps.nameChat) : undefined,
        }),
      );

    const live = await registry.record(loaded.streamId);
    // A page that resumes a continued answer gets it as stored before this turn first (message-replay.ts).
    if (continued) live.append(replayText(continued.message));
    return { response: new Response(sseBytes(events, { live }), { headers: STREAM_HEADERS }), stored };
  } catch (err) {
    // release, when the turn fails before it streams: the slot, the budget's hold, and the chat if it was claimed.
    release();
    releaseBudget();
    throw err;
  }
}

const modelOf = (m: { modelId: string; providerId: string }) => ({ model: m.modelId, providerId: m.providerId });

/** The title of a chat's first turn: its first words, then the chat's model names it (titles.ts). */
function chatTitle(loaded: Awaited<ReturnType<typeof loadTurn>>, first: string, nameChat: TurnDeps["nameChat"]) {
  return {
    first,
    name: async () => {
      const title = await nameChat(loaded.model.model, loaded.question?.text ?? "");
      return title && title !== first && (await storeModelTitle(loaded.chat.id, first, title)) ? title : undefined;
    },
  };
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
  // Everyone who may see the chat follows it live (lib/sharing/access.ts), not only its owner.
  const chat = await viewableChat(ctx, chatId);
  if (!chat.activeStreamId) return null;
  const registry = await streamRegistry();
  const stream = await registry.streams.resumeExistingStream(chat.activeStreamId);
  if (!stream) return null;
  return new Response(sseBytes(stream), { headers: STREAM_HEADERS });
}
