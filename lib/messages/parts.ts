// The stored form of a message: UI message parts <-> block rows. Each part kind maps its main fields
// to columns (so they can be queried and audited) and keeps every other field in `extras`, so
// parts -> blocks -> parts is exact (lib/messages/parts.test.ts proves it over generated messages; values
// the database would change are escaped by block-storage.ts). A tool call's status is its state
// (tool-states.ts); an aborted call is stored as `aborted` and read back as the `output-error` part it
// travelled as.
import { getToolName, isToolUIPart, type DynamicToolUIPart, type ToolUIPart } from "ai";
import type { Prisma } from "../db/generated/client";
import { parseToolError } from "../format/tool-error";
import { storable, unstored, type BlockFields, type Extras, type StoredBlock } from "./block-storage";
import type { ErrorData, ParleyPart } from "./message-types";
import { toolStateOf } from "./tool-states";
import { AUTO_RULE_KEY, DETAIL_KEYS } from "./approval-details";

const NO_STATE = "unset";

/** Splits `obj` into the listed keys and the rest; explicit nulls of listed keys are remembered. */
function split(obj: Record<string, unknown>, keys: string[]): { rest: Extras; nulls: string[] } {
  const rest: Extras = {};
  const nulls: string[] = [];
  for (const [k, v] of Object.entries(obj)) {
    if (keys.includes(k)) {
      if (v === null) nulls.push(k);
    } else if (v !== undefined) rest[k] = v;
  }
  return { rest, nulls };
}

function extrasOf(rest: Extras, nulls: string[]): Prisma.InputJsonValue | null {
  const out: Extras = { ...rest };
  if (nulls.length) out.nulls = [...new Set(nulls)];
  return Object.keys(out).length ? (out as Prisma.InputJsonValue) : null;
}

const json = (v: unknown) => (v === undefined || v === null ? null : (v as Prisma.InputJsonValue));

export function partToBlock(part: ParleyPart): BlockFields {
  return storable(fieldsOf(part));
}

function fieldsOf(part: ParleyPart): BlockFields {
  const p = part as Record<string, unknown> & { type: string };
  switch (p.type) {
    case "text":
    case "reasoning": {
      const { rest, nulls } = split(p, ["type", "text", "state", "providerMetadata"]);
      return {
        kind: p.type,
        status: (p.state as string | undefined) ?? NO_STATE,
        text: p.text as string,
        providerMetadata: json(p.providerMetadata),
        extras: extrasOf(rest, nulls),
      };
    }
    case "file":
    case "reasoning-file": {
      // A file of the model's reasoning (AI SDK 7) is a file block too, told apart by its status.
      const { rest, nulls } = split(p, ["type", "mediaType", "url", "filename", "providerMetadata"]);
      return {
        kind: "file",
        status: p.type === "file" ? "done" : "reasoning",
        mediaType: p.mediaType as string,
        url: p.url as string,
        name: (p.filename as string | undefined) ?? null,
        providerMetadata: json(p.providerMetadata),
        extras: extrasOf(rest, nulls),
      };
    }
    case "source-url":
    case "source-document": {
      const { rest, nulls } = split(p, ["type", "url", "title", "mediaType", "filename", "providerMetadata"]);
      return {
        kind: "source",
        status: p.type === "source-url" ? "url" : "document",
        url: (p.url as string | undefined) ?? null,
        text: (p.title as string | undefined) ?? null,
        mediaType: (p.mediaType as string | undefined) ?? null,
        name: (p.filename as string | undefined) ?? null,
        providerMetadata: json(p.providerMetadata),
        extras: extrasOf(rest, nulls),
      };
    }
    case "step-start":
      return { kind: "step", status: "done", extras: extrasOf(split(p, ["type"]).rest, []) };
    case "data-error": {
      const data = p.data as Partial<ErrorData> | null;
      const { rest, nulls } = split(p, ["type", "data"]);
      return {
        kind: "error",
        status: "done",
        errorCode: typeof data?.code === "string" ? data.code : null,
        errorText: typeof data?.message === "string" ? data.message : null,
        data: json(data),
        extras: extrasOf(rest, nulls),
      };
    }
    default:
      if (isToolUIPart(part)) return toolPartToBlock(part);
      if (p.type.startsWith("data-")) {
        const { rest, nulls } = split(p, ["type", "data"]);
        return { kind: "data", status: "done", name: p.type.slice(5), data: json(p.data), extras: extrasOf(rest, nulls) };
      }
      throw new Error(`Unknown message part type: ${p.type}`);
  }
}

function toolPartToBlock(part: ToolUIPart | DynamicToolUIPart): BlockFields {
  const p = part as unknown as Record<string, unknown> & { type: string };
  const dynamic = p.type === "dynamic-tool";
  const { rest, nulls } = split(p, [
    "type",
    "toolName",
    "toolCallId",
    "state",
    "input",
    "output",
    "errorText",
    "approval",
    "callProviderMetadata",
    // From the block's columns (approval-details.ts), never from a part.
    AUTO_RULE_KEY,
  ]);
  const approval = p.approval as { id: string; approved?: boolean; reason?: string } | undefined;
  if (approval) {
    // The approval's details come from the block's own columns (approval-details.ts), never from a part.
    const otherApproval = split(approval, ["id", "approved", "reason", ...DETAIL_KEYS]).rest;
    if (Object.keys(otherApproval).length) rest.approval = otherApproval;
  }
  return {
    kind: "tool",
    status: toolStateOf(part),
    toolName: getToolName(part),
    toolCallId: p.toolCallId as string,
    dynamic,
    input: json(p.input),
    output: json(p.output),
    errorText: (p.errorText as string | undefined) ?? null,
    // Derived, for queries and audits (the part keeps them in errorText and toolMetadata).
    errorCode: parseToolError(p.errorText as string | undefined)?.code ?? null,
    toolSource: toolSourceOf((p.toolMetadata as { source?: string } | undefined)?.source),
    approvalId: approval?.id ?? null,
    approved: approval?.approved ?? null,
    decisionReason: approval?.reason ?? null,
    providerMetadata: json(p.callProviderMetadata),
    extras: extrasOf(rest, nulls),
  };
}

/** Where a call ran, from its tool's `metadata.source`: an MCP server, or Parley itself (a knowledge search). */
function toolSourceOf(source: string | undefined): "mcp" | "builtin" | null {
  return source === "mcp" ? "mcp" : source === "knowledge" ? "builtin" : null;
}

export function blockToPart(stored: StoredBlock): ParleyPart {
  const b = unstored(stored);
  const { nulls = [], ...extras } = b.extras as Extras;
  const withNulls = (part: Record<string, unknown>) => {
    for (const k of nulls) part[k] = null;
    return part as ParleyPart;
  };
  const meta = (key: string, v: unknown) => (v === null || v === undefined ? {} : { [key]: v });
  switch (b.kind) {
    case "text":
    case "reasoning":
      return withNulls({
        type: b.kind,
        text: b.text ?? "",
        ...(b.status === NO_STATE ? {} : { state: b.status }),
        ...meta("providerMetadata", b.providerMetadata),
        ...extras,
      });
    case "file":
      return withNulls({
        type: b.status === "reasoning" ? "reasoning-file" : "file",
        mediaType: b.mediaType,
        url: b.url,
        ...meta("filename", b.name),
        ...meta("providerMetadata", b.providerMetadata),
        ...extras,
      });
    case "source":
      return withNulls({
        type: b.status === "url" ? "source-url" : "source-document",
        ...meta("url", b.url),
        ...meta("title", b.text),
        ...meta("mediaType", b.mediaType),
        ...meta("filename", b.name),
        ...meta("providerMetadata", b.providerMetadata),
        ...extras,
      });
    case "step":
      return withNulls({ type: "step-start", ...extras });
    case "error":
      return withNulls({ type: "data-error", data: b.data, ...extras });
    case "data":
      return withNulls({ type: `data-${b.name}`, ...meta("data", b.data), ...extras });
    case "tool": {
      const { approval: otherApproval, ...rest } = extras as Extras & { approval?: Record<string, unknown> };
      const approval =
        b.approvalId !== null
          ? {
              id: b.approvalId,
              ...(b.approved === null ? {} : { approved: b.approved }),
              ...(b.decisionReason === null ? {} : { reason: b.decisionReason }),
              ...otherApproval,
            }
          : undefined;
      return withNulls({
        type: b.dynamic ? "dynamic-tool" : `tool-${b.toolName}`,
        ...(b.dynamic ? { toolName: b.toolName } : {}),
        toolCallId: b.toolCallId,
        state: b.status === "aborted" ? "output-error" : b.status,
        ...meta("input", b.input),
        ...meta("output", b.output),
        ...meta("errorText", b.errorText),
        ...(approval ? { approval } : {}),
        ...meta("callProviderMetadata", b.providerMetadata),
        ...rest,
      });
    }
  }
}

/** Every UI part of a stored message, in order. */
export function blocksToParts(blocks: StoredBlock[]): ParleyPart[] {
  return blocks.map(blockToPart);
}
