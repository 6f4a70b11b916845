// A stored answer as the stream chunks that build it again. A turn that continues an answer (after
// decisions, Continue, a handover) streams only what it adds; a page that resumes it after a reload
// gets the turn's stream replayed from its start, and the AI SDK (7) starts that replay from an empty
// message. The turn's record therefore begins with the answer as it was stored before the turn
// (`replayOf`), so the resumed page shows the earlier parts and finds the calls the turn goes on with.
// What only the store knows of a part (an approval's decider, the input as the model wrote it) is not
// in the chunks: the page reads the stored answer once the turn ends.
import { isToolUIPart, type UIMessageChunk } from "ai";
import { sseEvent } from "./sse-bytes";
import type { ParleyDataParts, ParleyMetadata, ParleyUIMessage } from "./message-types";

type Chunk = UIMessageChunk<ParleyMetadata, ParleyDataParts>;
type Part = ParleyUIMessage["parts"][number];

/** A tool part's fields as stored (static `tool-<name>` and `dynamic-tool` alike). */
type ToolPart = {
  type: string;
  toolCallId: string;
  toolName?: string;
  state: string;
  input?: unknown;
  output?: unknown;
  errorText?: string;
  preliminary?: boolean;
  providerExecuted?: boolean;
  callProviderMetadata?: Record<string, Record<string, unknown>>;
  resultProviderMetadata?: Record<string, Record<string, unknown>>;
  toolMetadata?: Record<string, unknown>;
  title?: string;
  approval?: { id: string; approved?: boolean; reason?: string };
};

type ProviderMetadata = Extract<Chunk, { type: "tool-input-available" }>["providerMetadata"];
type ToolMetadata = Extract<Chunk, { type: "tool-input-available" }>["toolMetadata"];

/** The chunks of one tool call, from its input to the state it is stored in. */
function toolChunks(p: ToolPart): Chunk[] {
  const dynamic = p.type === "dynamic-tool";
  const toolName = dynamic ? p.toolName! : p.type.slice("tool-".length);
  const common = {
    toolCallId: p.toolCallId,
    ...(dynamic ? { dynamic: true } : {}),
    ...(p.providerExecuted !== undefined ? { providerExecuted: p.providerExecuted } : {}),
    ...(p.toolMetadata !== undefined ? { toolMetadata: p.toolMetadata as ToolMetadata } : {}),
  };
  const named = { ...common, toolName, ...(p.title !== undefined ? { title: p.title } : {}) };
  if (p.state === "input-streaming") return [{ type: "tool-input-start", ...named }];
  const out: Chunk[] = [
    {
      type: "tool-input-available",
      ...named,
      input: p.input,
      ...(p.callProviderMetadata ? { providerMetadata: p.callProviderMetadata as ProviderMetadata } : {}),
    },
  ];
  if (p.approval) {
    out.push({ type: "tool-approval-request", approvalId: p.approval.id, toolCallId: p.toolCallId });
    if (p.approval.approved !== undefined)
      out.push({
        type: "tool-approval-response",
        approvalId: p.approval.id,
        approved: p.approval.approved,
        ...(p.approval.reason ? { reason: p.approval.reason } : {}),
      });
  }
  const result = p.resultProviderMetadata ? { providerMetadata: p.resultProviderMetadata as ProviderMetadata } : {};
  if (p.state === "output-available")
    out.push({ type: "tool-output-available", ...common, output: p.output, ...(p.preliminary ? { preliminary: true } : {}), ...result });
  else if (p.state === "output-error") out.push({ type: "tool-output-error", ...common, errorText: p.errorText ?? "", ...result });
  else if (p.state === "output-denied") out.push({ type: "tool-output-denied", toolCallId: p.toolCallId });
  return out;
}

/** The chunks of one part; `n` names a text part (reasoning keeps the id it was stored with). */
function partChunks(part: Part, n: number): Chunk[] {
  const meta = "providerMetadata" in part && part.providerMetadata ? { providerMetadata: part.providerMetadata } : {};
  switch (part.type) {
    case "step-start":
      return [{ type: "start-step" }];
    case "text":
    case "reasoning": {
      // Ended even when stored mid-stream, so no id stays open for the turn's own parts to meet.
      const id = (part as { id?: string }).id ?? `replay-${n}`;
      return [
        { type: `${part.type}-start`, id, ...meta },
        { type: `${part.type}-delta`, id, delta: part.text },
        { type: `${part.type}-end`, id, ...meta },
      ] as Chunk[];
    }
    case "source-url":
    case "source-document":
    case "file":
      return [part as Chunk];
    default:
      if (isToolUIPart(part)) return toolChunks(part as ToolPart);
      if (part.type.startsWith("data-")) return [part as Chunk];
      return []; // a part type this replay does not know: the page reads it from the store at the end
  }
}

/** The stored answer as chunks, from its start: what a page that resumes a continued turn sees first. */
export function replayOf(message: ParleyUIMessage): Chunk[] {
  return [{ type: "start", messageId: message.id, ...(message.metadata ? { messageMetadata: message.metadata } : {}) }, ...message.parts.flatMap(partChunks)];
}

/** `replayOf` as server-sent events, the form a turn's record keeps. */
export function replayText(message: ParleyUIMessage): string {
  return replayOf(message).map(sseEvent).join("");
}
