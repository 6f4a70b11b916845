// What a turn sends to the model, prepared from the resolved model row: the guarded model (with the
// team's fallback model behind it), the tools it may offer (provider-native web search joins, tools are
// left out for a model without tool calling and described in the prompt for one with prompt-based tool
// calling), Anthropic cache breakpoints, the model's providerOptions, and the notices the turn shows
// about any of this (a `data-notice` part each, inserted by turn-stream.ts).
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { wrapLanguageModel, type ModelMessage, type ToolSet } from "ai";
import { withFallback } from "../providers/fallback";
import { promptToolsMiddleware } from "../providers/prompt-tools";
import { withPromptCaching } from "../providers/prompt-cache";
import type { ResolvedModel } from "../providers/resolve";
import { guardStreams } from "../providers/stream-guard";
import type { NoticeData } from "./parts";
import { classifyTurnError } from "./turn-errors";

export type PreparedTurn = {
  model: LanguageModelV3;
  messages: ModelMessage[];
  tools?: ToolSet;
  providerOptions?: ResolvedModel["providerOptions"];
  /** The model answering now: the chosen one, or the fallback once it took over. */
  active: { modelId: string; providerId: string };
  /** The turn's notices so far; a fallback taking over adds one while the turn runs. */
  notices: NoticeData[];
};

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
  const active = { modelId: resolved.modelId, providerId: resolved.providerId };
  if (resolved.fellBack) {
    notices.push({ code: "ModelUnavailable", message: `The model chosen for this chat is no longer available; ${resolved.displayName} (the team default) answers instead.` });
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
    model = withFallback(model, withTools(fallback), (err) => {
      active.modelId = fallback.modelId;
      active.providerId = fallback.providerId;
      const why = classifyTurnError(err).message;
      notices.push({ code: "FellBack", message: `${resolved.providerName} failed before answering (${why}); ${fallback.displayName} (the team's fallback model) answers instead.` });
    });
  }

  const cached = withPromptCaching(resolved.kind, { system: input.system, messages: input.messages, tools });
  return {
    model,
    messages: cached.messages,
    tools: cached.tools,
    providerOptions: resolved.providerOptions,
    active,
    notices,
  };
}
