// The stream phase of a turn (turn.ts): the model call and the answer's UI message stream. The call
// (streamText) runs within the turn's span, stops at the answer's step limit (a continued answer gets
// what is left: answer-steps.ts), repairs invalid tool calls and logs each step with its repairs. The
// answer's events (toUIMessageStream) carry its metadata (status, model, usage, citations, the
// fallback taking over), turn errors into coded texts, and go through turnStream (turn-stream.ts),
// which feeds the store and ends every open call when the answer ends.
import { isStepCount, streamText, toUIMessageStream, type TextStreamPart, type ToolSet } from "ai";
import { context } from "@opentelemetry/api";
import { toolErrorText } from "../tools/error-codes";
import { invalidCallText, repairToolCall, type RepairEvent } from "../tools/repair";
import { aiTelemetry, TURN_SPAN, type startTurnSpan } from "../observability/tracing";
import { answerCap } from "./answer-cap";
import { stepsLeft } from "./answer-steps";
import type { ParleyMetadata, ParleyUIMessage } from "../messages/message-types";
import { logStep } from "./step-log";
import type { StoreFeed } from "../messages/store-feed";
import type { StoredTurn } from "../messages/store-turn";
import type { StopReason } from "../messages/store-turn";
import { isFinal } from "../messages/tool-states";
import { classifyTurnError, turnErrorText } from "./turn-errors";
import type { ClaimedTurn } from "./turn-claim";
import type { LoadedTurn } from "./turn-load";
import { fallbackNews } from "./turn-model";
import type { PreparedAnswer } from "./turn-prepare";
import { turnStream, type OpenCall } from "./turn-stream";
import { storeModelTitle, type modelTitle } from "../chat/titles";

/** The model call of a turn, within its span, until the answer's step limit. */
export function callModel(
  loaded: LoadedTurn,
  claimed: ClaimedTurn,
  answer: PreparedAnswer,
  opts: { signal: AbortSignal; stepLimit: number; span: ReturnType<typeof startTurnSpan> },
) {
  const { prepared } = answer;
  const repairs: RepairEvent[] = [];
  let stepStartedAt = Date.now();
  return context.with(opts.span.ctx, () =>
    streamText({
      model: prepared.model,
      // The system prompt is the server's own (the member's instructions, cache-marked for Anthropic); the
      // history, read from the database, holds only user and assistant messages.
      instructions: prepared.instructions,
      messages: prepared.messages,
      tools: prepared.tools,
      providerOptions: prepared.providerOptions as Parameters<typeof streamText>[0]["providerOptions"],
      abortSignal: opts.signal,
      maxRetries: 1,
      stopWhen: isStepCount(stepsLeft(opts.stepLimit, claimed.stepsTaken)),
      prepareStep: answer.prepareStep,
      // Repairs are logged with the step they happened in.
      repairToolCall: repairToolCall(prepared.model, (e) => repairs.push(e)),
      onStepEnd: (step) => {
        logStep({
          chatId: loaded.chat.id,
          messageId: claimed.assistantId,
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
}

const modelOf = (m: { modelId: string; providerId: string }) => ({ model: m.modelId, providerId: m.providerId });

export type AnswerEventsOptions = {
  store: StoreFeed;
  stored: Promise<StoredTurn>;
  stepLimit: number;
  maxAnswerChars: number;
  nameChat: typeof modelTitle;
  /** Why an abort is the server stopping rather than a person's Stop. */
  interrupted: () => StopReason | undefined;
  /** Aborts the turn (the answer reached its cap). */
  abort: () => void;
};

/** The answer's events as server-sent events, for the browser and (through the feed) the store. */
export function answerEvents(
  result: ReturnType<typeof callModel>,
  loaded: LoadedTurn,
  claimed: ClaimedTurn,
  answer: PreparedAnswer,
  opts: AnswerEventsOptions,
): ReadableStream<string> {
  const { continued, assistantId } = claimed;
  const { prepared, citations } = answer;
  const open: OpenCall[] = (continued?.message.parts ?? []).flatMap((p) => {
    const call = p as OpenCall & { type: string };
    return call.toolCallId && !isFinal(call) ? [{ toolCallId: call.toolCallId, state: call.state, approval: call.approval }] : [];
  });
  /** What a stream part says of the message: its start (model, time), a fallback, its end (usage). */
  const partMetadata = (part: TextStreamPart<ToolSet>): ParleyMetadata | undefined => {
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
  };
  return (
    toUIMessageStream<ToolSet, ParleyUIMessage>({
      stream: result.stream,
      // A continued answer keeps its message: the stream starts from the stored one.
      originalMessages: continued ? claimed.history : undefined,
      generateMessageId: () => assistantId,
      sendReasoning: true,
      sendSources: true,
      messageMetadata: ({ part }): ParleyMetadata | undefined => {
        // URL sources (web search), cited MCP results and knowledge passages are numbered as they arrive.
        const cited = citations.take(part);
        const meta = partMetadata(part);
        return cited ? { ...meta, citations: cited } : meta;
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
          stepLimit: opts.stepLimit,
          stepsBefore: claimed.stepsTaken,
          store: opts.store,
          stored: opts.stored,
          open,
          interrupted: opts.interrupted,
          cap: answerCap(opts.maxAnswerChars, opts.abort),
          title: loaded.firstTitle ? chatTitle(loaded, loaded.firstTitle, opts.nameChat) : undefined,
        }),
      )
  );
}

/** The title of a chat's first turn: its first words, then the chat's model names it (titles.ts). */
function chatTitle(loaded: LoadedTurn, first: string, nameChat: typeof modelTitle) {
  return {
    first,
    name: async () => {
      const title = await nameChat(loaded.model.model, loaded.question?.text ?? "");
      return title && title !== first && (await storeModelTitle(loaded.chat.id, first, title)) ? title : undefined;
    },
  };
}
