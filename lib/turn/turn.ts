// One turn of a chat, from request to stored answer: the user's new message, a new version (a
// regenerated answer, an edited question; see branches.ts), Continue after Stop, or decisions on calls
// waiting for approval. Read top to bottom, `runTurn` is the lifecycle:
//
//   slot      a place among the turns this process runs at once (turn-slots.ts; 503 when full)
//   load      who asks and what (the caller's `input`), the chat, its models, its history (turn-load.ts)
//   budget    the member's budgets checked and one answer's worth held (lib/usage/budgets.ts)
//   claim     the turn's first rows, in one transaction (turn-claim.ts; 409 when another turn has the chat)
//   prepare   the tools (MCP servers that answer now), history and model with its fallback (turn-prepare.ts)
//   stream    the model call -> one UI message stream (turn-answer.ts, turn-stream.ts) to the browser,
//             resumable (stream-registry.ts), and to
//   finalise  the store (store-turn.ts), which writes blocks as they come and then the message
//   release   what the turn holds, in one place (turn-hold.ts): once the answer is stored, or when any
//             step before it streams fails
//
// The turn belongs to the server: a closed tab does not stop it, only `stopTurn` does (turn-follow.ts).
// Everything the turn has to tell (notices, the fallback taking over, errors, aborted tool calls)
// travels as parts of its stream; nothing is shared with callbacks. Tests and the benchmark inject
// through `TurnDeps`.
import type { ToolSet } from "ai";
import { config } from "../config";
import { db } from "../db/client";
import type { TeamContext } from "../teams/team-context";
import { assembleTools } from "../tools/tool-set";
import { holdTurnBudget, releaseHold } from "../usage/budgets";
import { metrics } from "../observability/metrics";
import { failTurnSpan, startTurnSpan, storedTraceOf, tracingEnabled, traceToStore } from "../observability/tracing";
import { markApprovalRequests } from "../approvals/approvals";
import { DEFAULT_RETRY } from "../messages/block-writer";
import { replayText } from "../messages/message-replay";
import { sseBytes, STREAM_HEADERS } from "../messages/sse-bytes";
import { storeFeed } from "../messages/store-feed";
import { storeTurn, type StoreDeps, type StoredTurn } from "../messages/store-turn";
import type { StopReason } from "../messages/store-turn";
import { streamRegistry, type LocalTurn, type Registry } from "./stream-registry";
import { modelTitle } from "../chat/titles";
import { answerEvents, callModel } from "./turn-answer";
import { TurnHold } from "./turn-hold";
import { claimTurn, releaseChat, withQuestion, type ClaimedTurn } from "./turn-claim";
import { loadTurn, type EarlyReads, type LoadedTurn, type TurnRequest } from "./turn-load";
import { prepareAnswer } from "./turn-prepare";
import { processTurnSlots, type TurnSlots } from "./turn-slots";

export type { TurnRequest };

/**
 * Who asks, and what: read by the caller (session, body, rate limit) once the turn has its slot; with
 * what it read of the turn on the way (turn-input.ts: the chat with the session, the history beside it).
 */
export type TurnInput = { ctx: TeamContext; request: TurnRequest; early?: EarlyReads };

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
  // Everything the turn holds is freed in one place, once: when it fails before it streams, or once its
  // answer is stored (turn-hold.ts).
  const hold = new TurnHold();
  // slot: taken first, so a server at capacity turns a request away before it spends anything on it.
  const slot = await deps.slots.take();
  hold.take(() => slot.release());
  try {
    // load
    const { ctx, request, early } = await input();
    const registry = await deps.registry();
    const loaded = await loadTurn(ctx, request, registry, early);
    // budget: a used-up budget refuses the turn before anything is written (402/429 with the reason).
    const { model: m } = loaded;
    const subject = { teamId: ctx.team.id, userId: ctx.user.id, modelRowId: m.modelRowId, modelName: m.displayName, prices: m.prices };
    const budget = await deps.budgets(await db(), subject, new Date(), loaded.budgets);
    hold.take(() => db().then((p) => releaseHold(p, budget.reservationId)));

    // claim: a new message's rows are written while the tools are gathered and the model is called,
    // from the next turn of the event loop: what runs without waiting for I/O until the model request
    // is on its way (the prompt, no tools or tools at hand, streamText) goes first, and the claim's
    // queries do not hold it back. Decisions and a continue are claimed first (turn-claim.ts).
    const claiming = loaded.claimFirst ? claimTurn(ctx, loaded) : nextTurn().then(() => claimTurn(ctx, loaded));
    const claimFailed = claiming.then(
      () => false,
      () => true,
    );
    const controller = new AbortController();
    const running = runningTurn(registry, loaded, claiming, controller);
    // Unregistered once the claim has settled (it registers the turn when it succeeds).
    hold.take(() => claimFailed.then(running.unregister));
    let continuedId: string | undefined;
    // Until the store has the answer: a failure stops the turn and frees the chat it claimed.
    const handChatToStore = hold.take(() => {
      controller.abort();
      return claimFailed.then((failed) => (failed ? undefined : releaseChat(loaded, continuedId)));
    });
    const claimed: ClaimedTurn = loaded.claimFirst
      ? await claiming
      : { history: withQuestion(loaded.history, loaded), assistantId: loaded.assistantId, stepsTaken: 0 };
    if (claimed.continued) continuedId = claimed.assistantId;
    const { continued, assistantId } = claimed;

    // prepare (turn-prepare.ts)
    const answer = await prepareAnswer(deps, ctx, loaded, claimed, budget.warning ? [budget.warning] : []);

    // stream (turn-answer.ts). Traced when tracing is on (lib/observability/tracing.ts): the AI SDK's
    // spans nest in the turn's; a continuation (after decisions) links to the span of the turn that
    // asked, stored with the answer.
    const follows =
      continued && tracingEnabled()
        ? storedTraceOf((await (await db()).message.findUnique({ where: { id: assistantId }, select: { metadata: true } }))?.metadata)
        : undefined;
    const span = startTurnSpan({ model: answer.prepared.answering.modelId, provider: m.providerName, chatId: loaded.chat.id, follows });
    hold.take(() => span.span.end());
    const stepLimit = deps.stepLimit();
    const result = callModel(loaded, claimed, answer, { signal: controller.signal, stepLimit, span });

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
        reservationId: budget.reservationId,
        afterBlocks: async (prisma) => {
          await markApprovalRequests(prisma, assistantId, answer.verdicts, new Date(), { teamId: ctx.team.id, userId: ctx.user.id, chatId: loaded.chat.id });
          await storeTrace(prisma, assistantId, span.span);
        },
        interrupted: running.interrupted,
      },
      deps.store,
    );
    metrics().turns.inc({ outcome: "started" });
    metrics().activeStreams.inc();
    hold.take(() => metrics().activeStreams.dec());
    const events = answerEvents(result, loaded, claimed, answer, {
      store: feed,
      stored,
      stepLimit,
      maxAnswerChars: deps.maxAnswerChars(),
      nameChat: deps.nameChat,
      interrupted: running.interrupted,
      abort: () => controller.abort(),
    });
    const live = await registry.record(loaded.streamId);
    // A page that resumes a continued answer gets it as stored before this turn first (message-replay.ts).
    if (continued) live.append(replayText(continued.message));
    const response = new Response(sseBytes(events, { live }), { headers: STREAM_HEADERS });

    // The store frees the chat; the rest is free before anyone hears that the turn is stored.
    handChatToStore();
    void stored
      .then((s) => {
        span.span.setAttributes({ "parley.turn.status": s.status, ...(s.cost != null ? { "parley.cost.usd": s.cost } : {}) });
        if (s.status === "error" || s.status === "interrupted") failTurnSpan(span.span, `the answer ended: ${s.status}`);
      })
      .catch((err) => {
        failTurnSpan(span.span, "could not finalise the message");
        console.error(`[turn] chat ${loaded.chat.id}: could not finalise the message`, err);
      })
      .finally(() => hold.release());
    return { response, stored };
  } catch (err) {
    hold.release();
    throw err;
  }
}

/** Resolves in the event loop's next turn, after waiting I/O (setImmediate). */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The turn among those this process runs (stream-registry.ts), from the moment it holds its chat: Stop
 * reaches it while its tools are still gathered (which can take a while on a cold server), not only
 * once it streams. A stop by the server (stop-turns.ts) ends the answer as interrupted, not stopped.
 */
function runningTurn(registry: Registry, loaded: LoadedTurn, claiming: Promise<ClaimedTurn>, controller: AbortController) {
  let ended!: () => void;
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
  void claiming.then(
    (c) => registry.local.set(loaded.chat.id, Object.assign(local, { messageId: c.assistantId })),
    () => {},
  );
  return {
    interrupted: () => interrupted,
    unregister: () => {
      if (registry.local.get(loaded.chat.id) === local) registry.local.delete(loaded.chat.id);
      ended();
    },
  };
}

/** The turn's trace, stored with the answer beside what else it keeps there (answer-steps.ts's stepsFrom). */
async function storeTrace(prisma: Awaited<ReturnType<typeof db>>, assistantId: string, span: Parameters<typeof traceToStore>[0]) {
  const trace = traceToStore(span);
  if (!trace) return;
  const row = await prisma.message.findUnique({ where: { id: assistantId }, select: { metadata: true } });
  await prisma.message.update({ where: { id: assistantId }, data: { metadata: { ...((row?.metadata as Record<string, unknown> | null) ?? {}), trace } } });
}
