// The store's own reading of a turn's UI message stream: folds each chunk into one assistant message
// in place, the way the AI SDK's readUIMessageStream builds it, but without a snapshot (a structured
// clone of the message) and three stream stages per chunk. `apply` says which part a chunk changed,
// so the block writer looks at that part only. The parts it builds are the SDK's (same fields, same
// states), so blocks stored from them are the same; message-fold.test.ts compares both on every kind
// of chunk. Text and reasoning parts grow in place: whoever keeps a part across chunks copies it.
// Here: text and reasoning, files, sources, steps, data parts and the message's metadata; a tool
// call's chunks are folded by tool-call-fold.ts.
import { foldParts, type Chunk, type Folded, type Part } from "./fold-parts";
import type { ParleyMetadata, ParleyUIMessage } from "./message-types";
import { toolCallFold } from "./tool-call-fold";

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
  const calls = toolCallFold(parts);
  const { changedAt, pushed } = foldParts(parts);

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
      case "tool-input-start":
      case "tool-input-delta":
      case "tool-input-available":
      case "tool-input-error":
      case "tool-approval-request":
      case "tool-approval-response":
      case "tool-output-denied":
      case "tool-output-available":
      case "tool-output-error":
        return calls.apply(c);
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
          calls.clear();
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
