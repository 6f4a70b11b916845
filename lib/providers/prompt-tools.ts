// Prompt-based tool calling for models without native tools: a language-model middleware that describes
// the turn's tools in the system prompt, turns the model's `<tool_call>{"name", "arguments"}</tool_call>`
// markup back into real tool-call parts (so approval, execution and blocks work as with native tools),
// and renders tool calls and results in the history as the same markup. The markup never reaches the
// answer text, not even while it streams. Malformed markup (unclosed tag, bad JSON, unknown tool) gets
// at most `maxReasks` correction re-asks per model call, nothing run meanwhile; then the call ends with
// a visible `ToolMarkupInvalid` error.
import type {
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4FunctionTool,
  LanguageModelV4Message,
  LanguageModelV4Middleware,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
} from "@ai-sdk/provider";
import { randomUUID } from "node:crypto";
import { AppError } from "../errors";
import { CALL_OPEN, markupParser, promptWithTools, toolsPrompt, type MarkupEvent } from "./prompt-tool-markup";

class ToolMarkupError extends AppError {
  constructor(reason: string, reasks: number) {
    super(
      "ToolMarkupInvalid",
      502,
      `The model wrote a tool call Parley could not read (${reason}), also after ${reasks} correction${reasks === 1 ? "" : "s"}. Nothing was run.`,
    );
  }
}

const correction = (reason: string) =>
  `Your tool call could not be read: ${reason}. Nothing was run. Write that tool call again, exactly in the ${CALL_OPEN} format with a JSON object, using only the listed tools, without repeating what you already wrote.`;

function reaskPrompt(params: LanguageModelV4CallOptions, attempts: { raw: string; reason: string }[]): LanguageModelV4CallOptions {
  const extra = attempts.flatMap<LanguageModelV4Message>((a) => [
    { role: "assistant", content: [{ type: "text", text: a.raw }] },
    { role: "user", content: [{ type: "text", text: correction(a.reason) }] },
  ]);
  return { ...params, prompt: [...params.prompt, ...extra] };
}

function addUsage(a: LanguageModelV4Usage | undefined, b: LanguageModelV4Usage): LanguageModelV4Usage {
  if (!a) return b;
  const sum = (x: number | undefined, y: number | undefined) => (x === undefined && y === undefined ? undefined : (x ?? 0) + (y ?? 0));
  return {
    inputTokens: {
      total: sum(a.inputTokens.total, b.inputTokens.total),
      noCache: sum(a.inputTokens.noCache, b.inputTokens.noCache),
      cacheRead: sum(a.inputTokens.cacheRead, b.inputTokens.cacheRead),
      cacheWrite: sum(a.inputTokens.cacheWrite, b.inputTokens.cacheWrite),
    },
    outputTokens: {
      total: sum(a.outputTokens.total, b.outputTokens.total),
      text: sum(a.outputTokens.text, b.outputTokens.text),
      reasoning: sum(a.outputTokens.reasoning, b.outputTokens.reasoning),
    },
  };
}

/**
 * After a re-ask the model often repeats what it already wrote before the bad markup: text already
 * shown is not shown twice, and a call already made is not made again.
 */
function repeatFilter() {
  let shown = "";
  let echo = -1;
  let reasked = false;
  const made = new Set<string>();
  return {
    reask() {
      echo = 0;
      reasked = true;
    },
    /** The part of `text` that is new. */
    text(text: string): string {
      if (echo < 0) {
        shown += text;
        return text;
      }
      let k = 0;
      while (k < text.length && echo + k < shown.length && text[k] === shown[echo + k]) k++;
      if (k === text.length) {
        echo += k;
        return "";
      }
      echo = -1;
      shown += text.slice(k);
      return text.slice(k);
    },
    /** Whether this call is new. */
    call(toolName: string, input: string): boolean {
      const key = `${toolName}\n${input}`;
      if (reasked && made.has(key)) return false;
      made.add(key);
      return true;
    },
  };
}

const newCallId = () => `call_${randomUUID().replace(/-/g, "").slice(0, 24)}`;

/** Calls prepared by transformParams: which tool names the model may call. */
const prepared = new WeakMap<LanguageModelV4CallOptions, Set<string>>();

export function promptToolsMiddleware(opts: { maxReasks?: number } = {}): LanguageModelV4Middleware {
  const maxReasks = opts.maxReasks ?? 2;
  return {
    specificationVersion: "v4",
    async transformParams({ params }) {
      const fnTools = (params.tools ?? []).filter((t): t is LanguageModelV4FunctionTool => t.type === "function");
      if (!fnTools.length || params.toolChoice?.type === "none") return params;
      const providerTools = params.tools?.filter((t) => t.type !== "function") ?? [];
      const next: LanguageModelV4CallOptions = {
        ...params,
        prompt: promptWithTools(params.prompt, toolsPrompt(fnTools, params.toolChoice)),
        tools: providerTools.length ? providerTools : undefined,
        toolChoice: providerTools.length ? { type: "auto" } : undefined,
      };
      prepared.set(next, new Set(fnTools.map((t) => t.name)));
      return next;
    },

    async wrapGenerate({ doGenerate, params, model }) {
      const names = prepared.get(params);
      if (!names) return doGenerate();
      const failed: { raw: string; reason: string }[] = [];
      let usage: LanguageModelV4Usage | undefined;
      for (;;) {
        const result = failed.length ? await model.doGenerate(reaskPrompt(params, failed)) : await doGenerate();
        usage = addUsage(usage, result.usage);
        const parser = markupParser(names);
        const text = result.content.flatMap((c) => (c.type === "text" ? [c.text] : [])).join("");
        const events = [...parser.push(text), ...parser.end()];
        const bad = events.find((e) => e.type === "malformed");
        if (bad) {
          failed.push({ raw: parser.raw, reason: bad.reason });
          if (failed.length > maxReasks) throw new ToolMarkupError(bad.reason, maxReasks);
          continue;
        }
        const content: LanguageModelV4Content[] = result.content.filter((c) => c.type !== "text");
        let calls = 0;
        for (const e of events) {
          if (e.type === "text") content.push({ type: "text", text: e.text });
          if (e.type === "call") {
            calls++;
            content.push({ type: "tool-call", toolCallId: newCallId(), toolName: e.toolName, input: e.input });
          }
        }
        const finishReason = calls ? { unified: "tool-calls" as const, raw: result.finishReason.raw } : result.finishReason;
        return { ...result, content, usage, finishReason };
      }
    },

    async wrapStream({ doStream, params, model }) {
      const names = prepared.get(params);
      if (!names) return doStream();
      const first = await doStream();
      let reader: ReadableStreamDefaultReader<LanguageModelV4StreamPart> | undefined = first.stream.getReader();
      let cancelled = false;

      const stream = new ReadableStream<LanguageModelV4StreamPart>({
        async start(controller) {
          const failed: { raw: string; reason: string }[] = [];
          let usage: LanguageModelV4Usage | undefined;
          let textId: string | undefined;
          let texts = 0;
          let calls = 0;
          const repeats = repeatFilter();
          let blank = "";
          const closeText = () => {
            if (textId) controller.enqueue({ type: "text-end", id: textId });
            textId = undefined;
          };
          try {
            for (let attempt = 0; !cancelled; attempt++) {
              if (!reader) reader = (await model.doStream(reaskPrompt(params, failed))).stream.getReader();
              const parser = markupParser(names);
              let finish: Extract<LanguageModelV4StreamPart, { type: "finish" }> | undefined;
              let bad: string | undefined;
              const handle = (events: MarkupEvent[]) => {
                for (const e of events) {
                  let text = e.type === "text" ? repeats.text(e.text) : "";
                  // Whitespace alone before, between or after calls is no text block of its own.
                  if (text && !textId && !text.trim()) {
                    blank += text;
                    text = "";
                  }
                  if (text) {
                    if (!textId) controller.enqueue({ type: "text-start", id: (textId = `txt-${texts++}`) });
                    controller.enqueue({ type: "text-delta", id: textId, delta: blank + text });
                    blank = "";
                  } else if (e.type === "call" && repeats.call(e.toolName, e.input)) {
                    closeText();
                    blank = "";
                    const id = newCallId();
                    calls++;
                    controller.enqueue({ type: "tool-input-start", id, toolName: e.toolName });
                    controller.enqueue({ type: "tool-input-delta", id, delta: e.input });
                    controller.enqueue({ type: "tool-input-end", id });
                    controller.enqueue({ type: "tool-call", toolCallId: id, toolName: e.toolName, input: e.input });
                  } else if (e.type === "malformed") bad = e.reason;
                }
                return events.some((e) => e.type === "malformed" || e.type === "stop");
              };
              let stopped = false;
              for (;;) {
                const next = await reader.read();
                if (next.done) break;
                const part = next.value;
                if (part.type === "text-delta") {
                  if (handle(parser.push(part.delta))) {
                    stopped = true;
                    break;
                  }
                } else if (part.type === "finish") finish = part;
                else if (part.type === "text-start" || part.type === "text-end") continue;
                else if ((part.type === "stream-start" || part.type === "response-metadata") && attempt > 0) continue;
                else controller.enqueue(part);
              }
              if (stopped) await reader.cancel().catch(() => {});
              else handle(parser.end());
              reader = undefined;
              if (finish) usage = addUsage(usage, finish.usage);
              if (bad === undefined) {
                closeText();
                const finishReason = calls
                  ? { unified: "tool-calls" as const, raw: finish?.finishReason.raw }
                  : (finish?.finishReason ?? { unified: "stop" as const, raw: undefined });
                controller.enqueue({ type: "finish", usage: usage ?? emptyUsage(), finishReason, providerMetadata: finish?.providerMetadata });
                break;
              }
              failed.push({ raw: parser.raw, reason: bad });
              repeats.reask();
              if (failed.length > maxReasks) {
                closeText();
                controller.enqueue({ type: "error", error: new ToolMarkupError(bad, maxReasks) });
                controller.enqueue({ type: "finish", usage: usage ?? emptyUsage(), finishReason: { unified: "error", raw: undefined } });
                break;
              }
            }
            controller.close();
          } catch (err) {
            if (!cancelled) controller.error(err);
          }
        },
        async cancel(reason) {
          cancelled = true;
          await reader?.cancel(reason).catch(() => {});
        },
      });
      return { ...first, stream };
    },
  };
}

function emptyUsage(): LanguageModelV4Usage {
  return {
    inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: undefined, text: undefined, reasoning: undefined },
  };
}
