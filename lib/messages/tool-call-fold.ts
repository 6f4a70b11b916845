// The store's fold of a tool call's chunks (message-fold.ts folds the others into the same message):
// its input as it streams (the partial JSON parsed as it grows), the input complete or refused, the
// approval asked for and decided, the denial, and its output or error. Each updates the call's part
// in place, or adds it, as the AI SDK's updateToolPart / updateDynamicToolPart do, static
// (`tool-<name>`) and dynamic calls alike; a call is looked for in the current step first.
import { parsePartialJson } from "ai";
import { foldParts, type Chunk, type Folded, type Part } from "./fold-parts";

type ToolPart = Record<string, unknown> & { type: string; toolCallId: string; state: string };
type PartialCall = { text: string; toolName: string; dynamic?: boolean; inputEncoding?: string; title?: string; toolMetadata?: unknown };

const isTool = (p: Part | undefined): p is Part & ToolPart => !!p && (p.type === "dynamic-tool" || p.type.startsWith("tool-"));
const OUTPUT_STATES = new Set(["output-available", "output-error"]);

/** Folds the chunks of tool calls into `parts`, the message's; `clear` forgets the calls whose input streams. */
export function toolCallFold(parts: Part[]) {
  const partial = new Map<string, PartialCall>();
  const { changedAt, pushed } = foldParts(parts);

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

  /** Folds one chunk of a call in; a promise only for streaming input (its partial JSON is parsed). */
  function apply(c: Chunk): Folded | Promise<Folded> {
    switch (c.type) {
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
      default:
        return { changed: -1 };
    }
  }

  return { apply, clear: () => partial.clear() };
}
