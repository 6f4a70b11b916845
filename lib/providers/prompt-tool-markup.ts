// The markup of prompt-based tool calling (prompt-tools.ts): the tags, how calls and results are
// written into a prompt, and the streaming parser that finds calls in a model's text.
import type {
  LanguageModelV4CallOptions,
  LanguageModelV4FunctionTool,
  LanguageModelV4Message,
  LanguageModelV4Prompt,
  LanguageModelV4ToolResultOutput,
} from "@ai-sdk/provider";

export const CALL_OPEN = "<tool_call>";
const CALL_CLOSE = "</tool_call>";
/** A made-up result the model writes itself: the answer stops there. */
const RESPONSE_OPEN = "<tool_response>";

export function toolsPrompt(tools: LanguageModelV4FunctionTool[], choice?: LanguageModelV4CallOptions["toolChoice"]): string {
  const list = tools.map((t) => JSON.stringify({ name: t.name, description: t.description ?? "", parameters: t.inputSchema })).join("\n");
  const must =
    choice?.type === "required"
      ? "\nYou must call at least one tool now."
      : choice?.type === "tool"
        ? `\nYou must call the tool "${choice.toolName}" now.`
        : "";
  return [
    "You can call tools. To call one, write exactly this, with the arguments as a JSON object:",
    `${CALL_OPEN}\n{"name": "<tool name>", "arguments": {}}\n${CALL_CLOSE}`,
    `Write one ${CALL_OPEN} block per call, then stop: each result comes back to you in a ${RESPONSE_OPEN} block. Never write a ${RESPONSE_OPEN} yourself, and call only these tools:`,
    `<tools>\n${list}\n</tools>${must}`,
  ].join("\n");
}

function outputText(output: LanguageModelV4ToolResultOutput): string {
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
      // A file (an image from a tool, say) cannot be shown as text: it is named by its kind.
      return output.value
        .map((p) => (p.type === "text" ? p.text : p.type === "file" ? `[${p.mediaType.split("/")[0] === "image" ? "image" : "file"}]` : `[${p.type}]`))
        .join("\n");
  }
}

const callMarkup = (name: string, input: unknown) => `${CALL_OPEN}\n${JSON.stringify({ name, arguments: input })}\n${CALL_CLOSE}`;
const responseMarkup = (name: string, output: LanguageModelV4ToolResultOutput) =>
  `${RESPONSE_OPEN}\n${JSON.stringify({ name, content: outputText(output) })}\n</tool_response>`;

/** The prompt with the tool description in the system message and tool calls/results as text. */
export function promptWithTools(prompt: LanguageModelV4Prompt, description: string): LanguageModelV4Prompt {
  const out: LanguageModelV4Message[] = [];
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

export type MarkupEvent =
  { type: "text"; text: string } | { type: "call"; toolName: string; input: string } | { type: "malformed"; reason: string } | { type: "stop" };

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
