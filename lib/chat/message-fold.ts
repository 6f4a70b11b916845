// The store's own reading of a turn's UI message stream: folds each chunk into one assistant message
// in place, the way the AI SDK's readUIMessageStream builds it, but without a snapshot (a structured
// clone of the message) and three stream stages per chunk. `apply` says which part a chunk changed,
// so the block writer looks at that part only. The parts it builds are the SDK's (same fields, same
// states), so blocks stored from them are the same; message-fold.test.ts compares both on every kind
// of chunk. Text and reasoning parts grow in place: whoever keeps a part across chunks copies it.
import { parsePartialJson } from "ai";
import type { ParleyMetadata, ParleyUIMessage } from "./message-types";

type Part = ParleyUIMessage["parts"][number];
type Chunk = Record<string, unknown> & { type: string };
type ToolPart = Record<string, unknown> & { type: string; toolCallId: string; state: string };
type PartialCall = { text: string; toolName: string; dynamic?: boolean; inputEncoding?: string; title?: string; toolMetadata?: unknown };

/** Where a chunk left the message: the index of the part it changed (-1: none, e.g. metadata only). */
export type Folded = { changed: number };

const isTool = (p: Part | undefined): p is Part & ToolPart => !!p && (p.type === "dynamic-tool" || p.type.startsWith("tool-"));
const OUTPUT_STATES = new Set(["output-available", "output-error"]);

/** The SDK's metadata merge: plain objects merge key by key; anything else (arrays too) replaces. */
function merge(base: unknown, over: unknown): unknown {
  if (over === undefined) return base;
  const plain = (v: unknown): v is Record<string, unknown> =>
    v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof Date) && !(v instanceof RegExp);
  if (!plain(base) || !plain(over)) return over;
  const out: Record<string, unknown> = { ...base };
  for (const key of Object.keys(over)) {
    if (key === "__proto__" || key === "constructor" || key === "prototype" || over[key] === undefined) continue;
    out[key] = merge(base[key], over[key]);
  }
  return out;
}

export function messageFold(id: string, start?: ParleyUIMessage) {
  // A continued answer starts from its stored message; the fold never changes the caller's copy.
  const message: ParleyUIMessage = start ? structuredClone(start) : { id, role: "assistant", parts: [] };
  const parts = message.parts as Part[];
  let activeText = new Map<string, Part & { text: string; state?: string; providerMetadata?: unknown }>();
  let activeReasoning = new Map<string, Part & { text: string; state?: string; providerMetadata?: unknown }>();
  const partial = new Map<string, PartialCall>();

  const changedAt = (part: object): Folded => ({ changed: parts.lastIndexOf(part as Part) });
  const pushed = (part: Part): Folded => {
    parts.push(part);
    return { changed: parts.length - 1 };
  };

  /** The parts of the current step (after the last step-start). */
  function stepStart(): number {
    for (let i = parts.length - 1; i >= 0; i--) if (parts[i].type === "step-start") return i + 1;
    return 0;
  }
  function findCall(toolCallId: string): (Part & ToolPart) | undefined {
    for (let i = stepStart(); i < parts.length; i++) {
      const p = parts[i];
      if (isTool(p) && p.toolCallId === toolCallId) return p;
    }
    for (let i = parts.length - 1; i >= 0; i--) {
      const p = parts[i];
      if (isTool(p) && p.toolCallId === toolCallId) return p;
    }
    return undefined;
  }

  /** The SDK's updateToolPart / updateDynamicToolPart: updates the call's part, or adds it. */
  function updateCall(
    o: Record<string, unknown> & { toolCallId: string; toolName: string; state: string },
    dynamic: boolean,
    existing?: Part & ToolPart,
  ): Folded {
    let part = existing;
    if (!part) {
      for (let i = stepStart(); i < parts.length; i++) {
        const p = parts[i];
        if (isTool(p) && p.toolCallId === o.toolCallId && (dynamic ? p.type === "dynamic-tool" : p.type !== "dynamic-tool")) {
          part = p;
          break;
        }
      }
    }
    const output = OUTPUT_STATES.has(o.state);
    if (part) {
      const p = part as Record<string, unknown>;
      p.state = o.state;
      if (dynamic) p.toolName = o.toolName;
      else p.type = `tool-${o.toolName}`;
      p.input = o.input;
      p.output = o.output;
      p.errorText = o.errorText;
      p.rawInput = o.rawInput;
      if (o.inputEncoding != null) p.inputEncoding = o.inputEncoding;
      else delete p.inputEncoding;
      p.preliminary = o.preliminary;
      if (o.title !== undefined) p.title = o.title;
      if (o.toolMetadata !== undefined) p.toolMetadata = o.toolMetadata;
      p.providerExecuted = o.providerExecuted ?? p.providerExecuted;
      if (o.providerMetadata != null) p[output ? "resultProviderMetadata" : "callProviderMetadata"] = o.providerMetadata;
      return changedAt(part);
    }
    const created: Record<string, unknown> = dynamic
      ? { type: "dynamic-tool", toolName: o.toolName, toolCallId: o.toolCallId, state: o.state, input: o.input }
      : { type: `tool-${o.toolName}`, toolCallId: o.toolCallId, state: o.state, title: o.title };
    if (o.toolMetadata !== undefined) created.toolMetadata = o.toolMetadata;
    if (!dynamic) created.input = o.input;
    if (o.inputEncoding != null) created.inputEncoding = o.inputEncoding;
    created.output = o.output;
    if (dynamic) {
      created.errorText = o.errorText;
      created.preliminary = o.preliminary;
      created.providerExecuted = o.providerExecuted;
      created.title = o.title;
    } else {
      created.rawInput = o.rawInput;
      created.errorText = o.errorText;
      created.providerExecuted = o.providerExecuted;
      created.preliminary = o.preliminary;
    }
    if (o.providerMetadata != null) created[output ? "resultProviderMetadata" : "callProviderMetadata"] = o.providerMetadata;
    return pushed(created as unknown as Part);
  }

  function setMetadata(meta: unknown): boolean {
    if (meta == null) return false;
    message.metadata = (message.metadata != null ? merge(message.metadata, meta) : meta) as ParleyMetadata;
    return true;
  }

  /** Folds one chunk in; a promise only for streaming tool input (its partial JSON is parsed). */
  function apply(c: Chunk): Folded | Promise<Folded> {
    switch (c.type) {
      case "text-delta":
      case "reasoning-delta": {
        const part = (c.type === "text-delta" ? activeText : activeReasoning).get(c.id as string);
        if (!part) return { changed: -1 };
        part.text += c.delta as string;
        if (c.providerMetadata != null) part.providerMetadata = c.providerMetadata;
        return changedAt(part);
      }
      case "text-start":
      case "reasoning-start": {
        const text = c.type === "text-start";
        const part = (text
          ? { type: "text", text: "", providerMetadata: c.providerMetadata, state: "streaming" }
          : { type: "reasoning", id: c.id, text: "", providerMetadata: c.providerMetadata, state: "streaming" }) as unknown as Part & { text: string };
        (text ? activeText : activeReasoning).set(c.id as string, part);
        return pushed(part);
      }
      case "text-end":
      case "reasoning-end": {
        const active = c.type === "text-end" ? activeText : activeReasoning;
        const part = active.get(c.id as string);
        if (!part) return { changed: -1 };
        part.state = "done";
        if (c.type === "text-end" && c.citations != null) (part as { citations?: unknown }).citations = c.citations;
        if (c.providerMetadata != null) part.providerMetadata = c.providerMetadata;
        active.delete(c.id as string);
        return changedAt(part);
      }
      case "file":
      case "reasoning-file":
        return pushed({
          type: c.type,
          mediaType: c.mediaType,
          url: c.url,
          ...(c.providerMetadata != null ? { providerMetadata: c.providerMetadata } : {}),
        } as Part);
      case "source-url":
        return pushed({ type: "source-url", sourceId: c.sourceId, url: c.url, title: c.title, providerMetadata: c.providerMetadata } as Part);
      case "source-document":
        return pushed({
          type: "source-document",
          sourceId: c.sourceId,
          mediaType: c.mediaType,
          title: c.title,
          filename: c.filename,
          providerMetadata: c.providerMetadata,
        } as Part);
      case "tool-input-start": {
        const id = c.toolCallId as string;
        partial.set(id, {
          text: "",
          toolName: c.toolName as string,
          dynamic: c.dynamic as boolean,
          inputEncoding: c.inputEncoding as string,
          title: c.title as string,
          toolMetadata: c.toolMetadata,
        });
        const { toolName, inputEncoding, providerExecuted, title, toolMetadata, providerMetadata } = c as Record<string, unknown>;
        return updateCall(
          {
            toolCallId: id,
            toolName: toolName as string,
            state: "input-streaming",
            inputEncoding,
            input: undefined,
            providerExecuted,
            title,
            toolMetadata,
            providerMetadata,
          },
          !!c.dynamic,
        );
      }
      case "tool-input-delta": {
        const call = partial.get(c.toolCallId as string);
        if (!call) return { changed: -1 };
        call.text += c.inputTextDelta as string;
        const update = (input: unknown) =>
          updateCall(
            {
              toolCallId: c.toolCallId as string,
              toolName: call.toolName,
              state: "input-streaming",
              inputEncoding: call.inputEncoding,
              input,
              rawInput: call.text,
              title: call.title,
              toolMetadata: call.toolMetadata,
            },
            !!call.dynamic,
          );
        if (call.inputEncoding === "text") return update(call.text);
        return parsePartialJson(call.text).then((r) => update(r.value));
      }
      case "tool-input-available": {
        const { toolName, input, providerExecuted, providerMetadata, title, toolMetadata } = c as Record<string, unknown>;
        return updateCall(
          {
            toolCallId: c.toolCallId as string,
            toolName: toolName as string,
            state: "input-available",
            input,
            providerExecuted,
            providerMetadata,
            title,
            toolMetadata,
          },
          !!c.dynamic,
        );
      }
      case "tool-input-error": {
        const id = c.toolCallId as string;
        let existing: Part | undefined;
        for (let i = stepStart(); i < parts.length && !existing; i++) if (isTool(parts[i]) && (parts[i] as ToolPart).toolCallId === id) existing = parts[i];
        const dynamic = existing ? existing.type === "dynamic-tool" : !!c.dynamic;
        const { toolName, input, errorText, providerExecuted, providerMetadata, toolMetadata } = c as Record<string, unknown>;
        const common = { toolCallId: id, toolName: toolName as string, state: "output-error", errorText, providerExecuted, providerMetadata, toolMetadata };
        return updateCall({ ...common, input }, dynamic);
      }
      case "tool-approval-request": {
        const call = findCall(c.toolCallId as string);
        if (!call) return { changed: -1 };
        call.state = "approval-requested";
        call.approval = {
          id: c.approvalId,
          ...(c.approvalDescriptor != null ? { descriptor: c.approvalDescriptor } : {}),
          ...(Object.prototype.hasOwnProperty.call(c, "inputSchemaInput") ? { inputSchemaInput: c.inputSchemaInput } : {}),
          ...(c.reason != null ? { requestReason: c.reason } : {}),
          ...(c.isAutomatic === true ? { isAutomatic: true } : {}),
          ...(c.signature != null ? { signature: c.signature } : {}),
        };
        return changedAt(call);
      }
      case "tool-approval-response": {
        // An approval decided while the answer streams (an automatic one): found by its approval id.
        let call: (Part & ToolPart) | undefined;
        for (let i = parts.length - 1; i >= 0 && !call; i--) {
          const p = parts[i];
          if (isTool(p) && (p.approval as { id?: unknown } | undefined)?.id === c.approvalId) call = p;
        }
        if (!call) return { changed: -1 };
        call.state = "approval-responded";
        call.approval = { ...(call.approval as object), id: c.approvalId, approved: c.approved, ...(c.reason != null ? { reason: c.reason } : {}) };
        if (c.providerExecuted != null) call.providerExecuted = c.providerExecuted;
        if (c.providerMetadata != null) call.callProviderMetadata = c.providerMetadata;
        return changedAt(call);
      }
      case "tool-output-denied": {
        const call = findCall(c.toolCallId as string);
        if (!call) return { changed: -1 };
        call.state = "output-denied";
        return changedAt(call);
      }
      case "tool-output-available":
      case "tool-output-error": {
        const call = findCall(c.toolCallId as string);
        if (!call) return { changed: -1 };
        const dynamic = call.type === "dynamic-tool";
        const available = c.type === "tool-output-available";
        return updateCall(
          {
            toolCallId: call.toolCallId,
            toolName: dynamic ? (call.toolName as string) : call.type.slice(5),
            state: available ? "output-available" : "output-error",
            input: call.input,
            ...(available ? { output: c.output, preliminary: c.preliminary } : { errorText: c.errorText, ...(dynamic ? {} : { rawInput: call.rawInput }) }),
            providerExecuted: c.providerExecuted,
            providerMetadata: c.providerMetadata,
            title: call.title,
            toolMetadata: c.toolMetadata ?? call.toolMetadata,
          },
          dynamic,
          call,
        );
      }
      case "start-step":
        return pushed({ type: "step-start" });
      case "finish-step":
        return { changed: -1 };
      case "start":
        if (c.messageId != null && c.messageId !== message.id) {
          // A new message: the SDK starts over (resetStateOnMessageIdChange).
          parts.length = 0;
          message.metadata = undefined;
          activeText = new Map();
          activeReasoning = new Map();
          partial.clear();
          message.id = c.messageId as string;
        }
        setMetadata(c.messageMetadata);
        return { changed: -1 };
      case "finish":
      case "message-metadata":
        setMetadata(c.messageMetadata);
        return { changed: -1 };
      case "error":
      case "abort":
        return { changed: -1 };
      default: {
        if (!c.type.startsWith("data-") || c.transient) return { changed: -1 };
        const existing = c.id != null ? parts.find((p) => p.type === c.type && (p as { id?: unknown }).id === c.id) : undefined;
        if (existing) {
          (existing as { data?: unknown }).data = c.data;
          return changedAt(existing);
        }
        return pushed(c as unknown as Part);
      }
    }
  }

  return { message, apply };
}
