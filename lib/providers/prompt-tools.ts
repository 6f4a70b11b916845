// Prompt-based tool calling for models without native tools: a language-model middleware that describes
// the turn's tools in the system prompt, turns the model's `<tool_call>{"name", "arguments"}</tool_call>`
// markup back into real tool-call parts (so approval, execution and blocks work as with native tools),
// and renders tool calls and results in the history as the same markup. The markup never reaches the
// answer text, not even while it streams. Malformed markup (unclosed tag, bad JSON, unknown tool) gets
// at most `maxReasks` correction re-asks per model call, nothing run meanwhile; then the call ends with
// a visible `ToolMarkupInvalid` error.
import type {
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3FunctionTool,
  LanguageModelV3Message,
  LanguageModelV3Middleware,
  LanguageModelV3Prompt,
  LanguageModelV3StreamPart,
  LanguageModelV3ToolResultOutput,
  LanguageModelV3Usage,
} from "@ai-sdk/provider";
import { randomUUID } from "node:crypto";
import { AppError } from "../errors";

const CALL_OPEN = "<tool_call>";
const CALL_CLOSE = "</tool_call>";
/** A made-up result the model writes itself: the answer stops there. */
const RESPONSE_OPEN = "<tool_response>";

export class ToolMarkupError extends AppError {
  constructor(reason: string, reasks: number) {
    super("ToolMarkupInvalid", 502, `The model wrote a tool call Parley could not read (${reason}), also after ${reasks} correction${reasks === 1 ? "" : "s"}. Nothing was run.`);
  }
}

// ---- Prompt side -------------------------------------------------------------------------------

function toolsPrompt(tools: LanguageModelV3FunctionTool[], choice?: LanguageModelV3CallOptions["toolChoice"]): string {
  const list = tools.map((t) => JSON.stringify({ name: t.name, description: t.description ?? "", parameters: t.inputSchema })).join("\n");
  const must =
    choice?.type === "required" ? "\nYou must call at least one tool now." : choice?.type === "tool" ? `\nYou must call the tool "${choice.toolName}" now.` : "";
  return [
    "You can call tools. To call one, write exactly this, with the arguments as a JSON object:",
    `${CALL_OPEN}\n{"name": "<tool name>", "arguments": {}}\n${CALL_CLOSE}`,
    `Write one ${CALL_OPEN} block per call, then stop: each result comes back to you in a ${RESPONSE_OPEN} block. Never write a ${RESPONSE_OPEN} yourself, and call only these tools:`,
    `<tools>\n${list}\n</tools>${must}`,
  ].join("\n");
}

function outputText(output: LanguageModelV3ToolResultOutput): string {
  switch (output.type) {
    case "text":
      return output.value;
    case "error-text":
      return output.value.startsWith("[ERROR:") ? output.value : `[ERROR:ToolFailed] ${output.value}`;
    case "json":
      return JSON.stringify(output.value);
    case "error-json":
      return `[ERROR:ToolFailed] ${JSON.stringify(output.value)}`;
    case "execution-denied":
      return `[ERROR:Denied] The user denied this tool call${output.reason ? `: ${output.reason}` : "."}`;
    case "content":
      return output.value.map((p) => (p.type === "text" ? p.text : `[${p.type}]`)).join("\n");
  }
}

const callMarkup = (name: string, input: unknown) => `${CALL_OPEN}\n${JSON.stringify({ name, arguments: input })}\n${CALL_CLOSE}`;
const responseMarkup = (name: string, output: LanguageModelV3ToolResultOutput) =>
  `${RESPONSE_OPEN}\n${JSON.stringify({ name, content: outputText(output) })}\n</tool_response>`;

/** The prompt with the tool description in the system message and tool calls/results as text. */
export function promptWithTools(prompt: LanguageModelV3Prompt, description: string): LanguageModelV3Prompt {
  const out: LanguageModelV3Message[] = [];
  const pushUser = (text: string) => {
    const last = out.at(-1);
    if (last?.role === "user") last.content = [...last.content, { type: "text", text }];
    else out.push({ role: "user", content: [{ type: "text", text }] });
  };
  for (const msg of prompt) {
    if (msg.role === "assistant") {
      const content = msg.content.flatMap((p) => {
        if (p.type === "tool-call") return [{ type: "text" as const, text: callMarkup(p.toolName, p.input) }];
        if (p.type === "tool-result") return [{ type: "text" as const, text: responseMarkup(p.toolName, p.output) }];
        return [p];
      });
      out.push({ ...msg, content });
    } else if (msg.role === "tool") {
      const texts = msg.content.flatMap((p) => {
        if (p.type === "tool-result") return [responseMarkup(p.toolName, p.output)];
        if (p.type === "tool-approval-response" && !p.approved) return [`[ERROR:Denied] The user denied a tool call${p.reason ? `: ${p.reason}` : "."}`];
        return [];
      });
      if (texts.length) pushUser(texts.join("\n"));
    } else if (msg.role === "user") {
      const last = out.at(-1);
      if (last?.role === "user") last.content = [...last.content, ...msg.content];
      else out.push({ ...msg, content: [...msg.content] });
    } else out.push(msg);
  }
  const sys = out.findIndex((m) => m.role === "system");
  if (sys >= 0) out[sys] = { role: "system", content: `${(out[sys] as { content: string }).content}\n\n${description}` };
  else out.unshift({ role: "system", content: description });
  return out;
}

// ---- Markup parser ----------------------------------------------------------------------------

export type MarkupEvent =
  | { type: "text"; text: string }
  | { type: "call"; toolName: string; input: string }
  | { type: "malformed"; reason: string }
  | { type: "stop" };

/** The longest tail of `s` that could still grow into one of the tags (so it is held back). */
function heldTail(s: string, tags: string[]): number {
  for (let i = Math.max(0, s.length - Math.max(...tags.map((t) => t.length)) + 1); i < s.length; i++) {
    if (s[i] === "<" && tags.some((t) => t.startsWith(s.slice(i)))) return s.length - i;
  }
  return 0;
}

function parseCall(body: string, toolNames: Set<string>): MarkupEvent {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.trim());
  } catch {
    return { type: "malformed", reason: "the tool call is not valid JSON" };
  }
  const call = parsed as { name?: unknown; arguments?: unknown; parameters?: unknown };
  if (!call || typeof call !== "object" || typeof call.name !== "string") return { type: "malformed", reason: 'the tool call has no "name"' };
  if (!toolNames.has(call.name)) return { type: "malformed", reason: `there is no tool named "${call.name}"` };
  let args = call.arguments ?? call.parameters ?? {};
  if (typeof args === "string") {
    try {
      args = JSON.parse(args);
    } catch {
      /* checked below */
    }
  }
  if (!args || typeof args !== "object" || Array.isArray(args)) return { type: "malformed", reason: '"arguments" is not a JSON object' };
  return { type: "call", toolName: call.name, input: JSON.stringify(args) };
}

/** Incremental parser of one answer: text passes through, markup becomes calls. `raw` is what it read. */
export function markupParser(toolNames: Set<string>) {
  let pending = "";
  let inCall = false;
  let done = false;
  let raw = "";
  function drain(final: boolean): MarkupEvent[] {
    const events: MarkupEvent[] = [];
    while (!done) {
      if (inCall) {
        const end = pending.indexOf(CALL_CLOSE);
        if (end < 0) {
          if (final) {
            pending = "";
            done = true;
            events.push({ type: "malformed", reason: "the tool call tag is never closed" });
          }
          break;
        }
        const event = parseCall(pending.slice(0, end), toolNames);
        pending = pending.slice(end + CALL_CLOSE.length);
        inCall = false;
        events.push(event);
        if (event.type === "malformed") done = true;
        continue;
      }
      const open = pending.indexOf(CALL_OPEN);
      const fake = pending.indexOf(RESPONSE_OPEN);
      if (fake >= 0 && (open < 0 || fake < open)) {
        if (fake > 0) events.push({ type: "text", text: pending.slice(0, fake) });
        events.push({ type: "stop" });
        done = true;
        break;
      }
      if (open >= 0) {
        if (open > 0) events.push({ type: "text", text: pending.slice(0, open) });
        pending = pending.slice(open + CALL_OPEN.length);
        inCall = true;
        continue;
      }
      const keep = final ? 0 : heldTail(pending, [CALL_OPEN, RESPONSE_OPEN]);
      if (pending.length > keep) events.push({ type: "text", text: pending.slice(0, pending.length - keep) });
      pending = pending.slice(pending.length - keep);
      break;
    }
    return events;
  }
  return {
    push(delta: string): MarkupEvent[] {
      if (done) return [];
      raw += delta;
      pending += delta;
      return drain(false);
    },
    end(): MarkupEvent[] {
      return done ? [] : drain(true);
    },
    /** The answer's text up to where parsing stopped (for a re-ask). */
    get raw() {
      return done ? raw.slice(0, raw.length - pending.length) : raw;
    },
  };
}

// ---- Middleware -------------------------------------------------------------------------------

const correction = (reason: string) =>
  `Your tool call could not be read: ${reason}. Nothing was run. Write that tool call again, exactly in the ${CALL_OPEN} format with a JSON object, using only the listed tools, without repeating what you already wrote.`;

function reaskPrompt(params: LanguageModelV3CallOptions, attempts: { raw: string; reason: string }[]): LanguageModelV3CallOptions {
  const extra = attempts.flatMap<LanguageModelV3Message>((a) => [
    { role: "assistant", content: [{ type: "text", text: a.raw }] },
    { role: "user", content: [{ type: "text", text: correction(a.reason) }] },
  ]);
  return { ...params, prompt: [...params.prompt, ...extra] };
}

function addUsage(a: LanguageModelV3Usage | undefined, b: LanguageModelV3Usage): LanguageModelV3Usage {
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
const prepared = new WeakMap<LanguageModelV3CallOptions, Set<string>>();

export function promptToolsMiddleware(opts: { maxReasks?: number } = {}): LanguageModelV3Middleware {
  const maxReasks = opts.maxReasks ?? 2;
  return {
    specificationVersion: "v3",
    async transformParams({ params }) {
      const fnTools = (params.tools ?? []).filter((t): t is LanguageModelV3FunctionTool => t.type === "function");
      if (!fnTools.length || params.toolChoice?.type === "none") return params;
      const providerTools = params.tools?.filter((t) => t.type !== "function") ?? [];
      const next: LanguageModelV3CallOptions = {
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
      let usage: LanguageModelV3Usage | undefined;
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
        const content: LanguageModelV3Content[] = result.content.filter((c) => c.type !== "text");
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
      let reader: ReadableStreamDefaultReader<LanguageModelV3StreamPart> | undefined = first.stream.getReader();
      let cancelled = false;

      const stream = new ReadableStream<LanguageModelV3StreamPart>({
        async start(controller) {
          const failed: { raw: string; reason: string }[] = [];
          let usage: LanguageModelV3Usage | undefined;
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
              let finish: Extract<LanguageModelV3StreamPart, { type: "finish" }> | undefined;
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
                const finishReason = calls ? { unified: "tool-calls" as const, raw: finish?.finishReason.raw } : (finish?.finishReason ?? { unified: "stop" as const, raw: undefined });
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

function emptyUsage(): LanguageModelV3Usage {
  return {
    inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: undefined, text: undefined, reasoning: undefined },
  };
}
