// The stored form of a message: UI message parts <-> block rows. Each part kind maps its main fields
// to columns (so they can be queried and audited) and keeps every other field in `extras`, so
// parts -> blocks -> parts is exact (lib/chat/parts.test.ts proves it over generated messages).
// Errors and notices travel as data parts (`data-error`, `data-notice`) so a live turn and a
// reloaded one render from the same parts.
import type { UIMessage } from "ai";
import type { BlockKind, Prisma, ToolSource } from "../db/generated/client";

export type ErrorData = { code: string; message: string };
export type NoticeData = { code: string; message: string };

export type ParleyMetadata = {
  status?: "streaming" | "done" | "stopped" | "interrupted" | "error";
  model?: string;
  finishReason?: string;
  usage?: { inputTokens?: number; outputTokens?: number; cachedInputTokens?: number; reasoningTokens?: number };
  createdAt?: string;
};

export type ParleyDataParts = { error: ErrorData; notice: NoticeData };
export type ParleyUIMessage = UIMessage<ParleyMetadata, ParleyDataParts>;
export type ParleyPart = ParleyUIMessage["parts"][number];

/** The columns of a block that a part determines (everything but ids, message and timestamps). */
export type BlockFields = {
  kind: BlockKind;
  status: string;
  text?: string | null;
  mediaType?: string | null;
  url?: string | null;
  name?: string | null;
  data?: Prisma.InputJsonValue | null;
  toolCallId?: string | null;
  toolName?: string | null;
  toolSource?: ToolSource | null;
  dynamic?: boolean;
  input?: Prisma.InputJsonValue | null;
  output?: Prisma.InputJsonValue | null;
  errorCode?: string | null;
  errorText?: string | null;
  approvalId?: string | null;
  approved?: boolean | null;
  decisionReason?: string | null;
  providerMetadata?: Prisma.InputJsonValue | null;
  extras?: Prisma.InputJsonValue | null;
};

/** A block as read back (only the fields blockToPart needs). */
export type StoredBlock = {
  kind: BlockKind;
  status: string;
  text: string | null;
  mediaType: string | null;
  url: string | null;
  name: string | null;
  data: unknown;
  toolCallId: string | null;
  toolName: string | null;
  dynamic: boolean;
  input: unknown;
  output: unknown;
  errorCode: string | null;
  errorText: string | null;
  approvalId: string | null;
  approved: boolean | null;
  decisionReason: string | null;
  providerMetadata: unknown;
  extras: unknown;
};

type Extras = Record<string, unknown> & { nulls?: string[] };

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
  if (nulls.length) out.nulls = nulls;
  return Object.keys(out).length ? (out as Prisma.InputJsonValue) : null;
}

const json = (v: unknown) => (v === undefined || v === null ? null : (v as Prisma.InputJsonValue));

export function partToBlock(part: ParleyPart): BlockFields {
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
    case "file": {
      const { rest, nulls } = split(p, ["type", "mediaType", "url", "filename", "providerMetadata"]);
      return {
        kind: "file",
        status: "done",
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
      const data = p.data as ErrorData;
      const { rest, nulls } = split(p, ["type", "data"]);
      return { kind: "error", status: "done", errorCode: data.code, errorText: data.message, data: json(data), extras: extrasOf(rest, nulls) };
    }
    default:
      if (p.type === "dynamic-tool" || p.type.startsWith("tool-")) return toolPartToBlock(p);
      if (p.type.startsWith("data-")) {
        const { rest, nulls } = split(p, ["type", "data"]);
        if (p.data === null) nulls.push("data");
        return { kind: "data", status: "done", name: p.type.slice(5), data: json(p.data), extras: extrasOf(rest, nulls) };
      }
      throw new Error(`Unknown message part type: ${p.type}`);
  }
}

function toolPartToBlock(p: Record<string, unknown> & { type: string }): BlockFields {
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
  ]);
  const approval = p.approval as { id: string; approved?: boolean; reason?: string } | undefined;
  if (approval) {
    const { id: _id, approved: _a, reason: _r, ...otherApproval } = approval;
    if (Object.keys(otherApproval).length) rest.approval = otherApproval;
  }
  if (p.input === null) nulls.push("input");
  if (p.output === null) nulls.push("output");
  return {
    kind: "tool",
    status: p.state as string,
    toolName: dynamic ? (p.toolName as string) : p.type.slice(5),
    toolCallId: p.toolCallId as string,
    dynamic,
    input: json(p.input),
    output: json(p.output),
    errorText: (p.errorText as string | undefined) ?? null,
    approvalId: approval?.id ?? null,
    approved: approval?.approved ?? null,
    decisionReason: approval?.reason ?? null,
    providerMetadata: json(p.callProviderMetadata),
    extras: extrasOf(rest, [...new Set(nulls)]),
  };
}

export function blockToPart(b: StoredBlock): ParleyPart {
  const { nulls = [], ...extras } = ((b.extras as Extras | null) ?? {}) as Extras;
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
      return withNulls({ type: "file", mediaType: b.mediaType, url: b.url, ...meta("filename", b.name), ...meta("providerMetadata", b.providerMetadata), ...extras });
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
      const approval = b.approvalId
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
        state: b.status,
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
