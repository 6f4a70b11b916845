// What a turn sends to the model, prepared from the resolved model row: the guarded model (with the
// team's fallback model behind it), the tools it may offer (provider-native web search joins, tools are
// left out for a model without tool calling and described in the prompt for one with prompt-based tool
// calling), Anthropic cache breakpoints, the model's providerOptions, and the notices the turn shows
// about any of this (a `data-notice` part each, inserted by turn-stream.ts).
//
// A fallback taking over mid-turn is news that travels in the stream: the fallback model's first step
// starts with a warning that names it (FALLBACK_WARNING), which the turn turns into message metadata
// (the model and provider that answer) and a `FellBack` notice — nothing is shared with the turn.
import type { LanguageModelV4, LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { wrapLanguageModel, type CallWarning, type ModelMessage, type SystemModelMessage, type ToolSet } from "ai";
import { withFallback } from "../providers/fallback";
import { promptToolsMiddleware } from "../providers/prompt-tools";
import { withPromptCaching } from "../providers/prompt-cache";
import type { ResolvedModel } from "../providers/resolve";
import { guardStreams } from "../providers/stream-guard";
import type { NoticeData } from "../messages/message-types";
import { classifyTurnError } from "./turn-errors";

export type PreparedTurn = {
  model: LanguageModelV4;
  /** The system prompt, passed as the call's `instructions` (with Anthropic's cache mark). */
  instructions?: string | SystemModelMessage;
  messages: ModelMessage[];
  tools?: ToolSet;
  providerOptions?: ResolvedModel["providerOptions"];
  /** The model that answers unless the fallback takes over. */
  answering: ModelRef;
  /** Notices known before the turn streams (inserted after the message starts). */
  notices: readonly NoticeData[];
};

/** The model row and provider that answer (message metadata, usage record). */
type ModelRef = { modelId: string; providerId: string };

/** What the fallback's first step says when it took over (see the header). */
export type FallbackNews = ModelRef & { notice: NoticeData };

const FALLBACK_MARK = "parley:fallback ";

/** The fallback news in a step's warnings (the start of the fallback's first step), if any. */
export function fallbackNews(warnings: readonly CallWarning[] | undefined): FallbackNews | undefined {
  for (const w of warnings ?? []) {
    if (w.type === "other" && w.message.startsWith(FALLBACK_MARK)) return JSON.parse(w.message.slice(FALLBACK_MARK.length)) as FallbackNews;
  }
  return undefined;
}

/**
 * The AI SDK's call warnings (a setting the provider ignores, say) as one log line each, without the
 * fallback news, which travels as a warning but is none. Set once, unless the operator's code set its own.
 */
if (globalThis.AI_SDK_LOG_WARNINGS === undefined) {
  const deprecations = new Set<string>();
  globalThis.AI_SDK_LOG_WARNINGS = ({ warnings, provider, model }) => {
    for (const w of warnings) {
      if (w.type === "other" && w.message.startsWith(FALLBACK_MARK)) continue;
      // A deprecation once per process (the SDK's own logger does the same).
      if (w.type === "deprecated" && (deprecations.has(w.setting) || !deprecations.add(w.setting))) continue;
      console.warn(`[ai-sdk] ${provider ?? "?"}/${model ?? "?"}: ${JSON.stringify(w)}`);
    }
  };
}

/** A model whose streams start with `news()` as a warning, while `news()` has any. */
function announcing(model: LanguageModelV4, news: () => FallbackNews | undefined): LanguageModelV4 {
  return wrapLanguageModel({
    model,
    middleware: {
      specificationVersion: "v4",
      wrapStream: async ({ doStream }) => {
        const result = await doStream();
        const said = news();
        if (!said) return result;
        const mark = (part: LanguageModelV4StreamPart): LanguageModelV4StreamPart =>
          part.type === "stream-start" ? { ...part, warnings: [...part.warnings, { type: "other", message: FALLBACK_MARK + JSON.stringify(said) }] } : part;
        return { ...result, stream: result.stream.pipeThrough(new TransformStream({ transform: (p, c) => c.enqueue(mark(p)) })) };
      },
    },
  });
}

export function prepareTurn(
  resolved: ResolvedModel,
  input: {
    messages: ModelMessage[];
    tools?: ToolSet;
    system?: string;
    idleMs: number;
    /** The team's fallback model, if it has one (resolve.ts). */
    fallback?: ResolvedModel | null;
    /** Notices the turn already has. */
    notices?: NoticeData[];
  },
): PreparedTurn {
  const notices: NoticeData[] = [...(input.notices ?? [])];
  if (resolved.fellBack) {
    notices.push({
      code: "ModelUnavailable",
      message: `The model chosen for this chat is no longer available; ${resolved.displayName} (the team default) answers instead.`,
    });
  }

  let tools: ToolSet | undefined = { ...input.tools, ...resolved.providerTools };
  if (resolved.toolCalling === "none") {
    if (input.tools && Object.keys(input.tools).length) {
      notices.push({ code: "NoToolCalling", message: `${resolved.displayName} cannot call tools, so tools are off for this answer.` });
    }
    tools = undefined;
  }
  if (tools && !Object.keys(tools).length) tools = undefined;

  // A model flagged for prompt-based tool calling gets the tools as text and its markup parsed back.
  const withTools = (r: ResolvedModel) => {
    const guarded = guardStreams(r.model, input.idleMs);
    return tools && r.toolCalling === "prompt" ? wrapLanguageModel({ model: guarded, middleware: promptToolsMiddleware() }) : guarded;
  };
  let model = withTools(resolved);
  // A model without tool calling never takes over a turn that offers tools.
  const fallback = input.fallback && !(tools && input.fallback.toolCalling === "none") ? input.fallback : null;
  if (fallback) {
    // Set once, when the fallback takes over; its first stream carries it as a warning.
    let news: FallbackNews | undefined;
    let told = false;
    const tellOnce = () => (told ? undefined : ((told = true), news));
    model = withFallback(model, announcing(withTools(fallback), tellOnce), (err) => {
      const why = classifyTurnError(err).message;
      news = {
        modelId: fallback.modelId,
        providerId: fallback.providerId,
        notice: {
          code: "FellBack",
          message: `${resolved.providerName} failed before answering (${why}); ${fallback.displayName} (the team's fallback model) answers instead.`,
        },
      };
    });
  }

  const cached = withPromptCaching(resolved.kind, { system: input.system, messages: input.messages, tools });
  return {
    model,
    instructions: cached.instructions,
    messages: cached.messages,
    tools: cached.tools,
    providerOptions: resolved.providerOptions,
    answering: { modelId: resolved.modelId, providerId: resolved.providerId },
    notices,
  };
}
