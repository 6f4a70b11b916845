"use client";
// The generic tool block: one renderer driven by the part's state (input, running with progress,
// result, coded error, denial). MCP results render by content type: text as markdown, images,
// audio, resource links as links, embedded resources, structured content as a collapsible JSON
// view. A tool with an MCP Apps view shows it after the result (app-view.tsx).
import { CheckCircle2, CircleSlash, Link2, Loader2, Scissors, Wrench, XCircle } from "lucide-react";
import { Streamdown } from "streamdown";
import { getToolName, type DynamicToolUIPart, type ToolUIPart } from "ai";
import type { Truncation } from "@/lib/mcp/results";
import type { ElicitationView } from "@/lib/chat/elicitations";
import type { ApprovalDetails } from "@/lib/chat/approval-details";
import { parseToolError } from "@/lib/format/tool-error";
import { InputDiff } from "../shared/input-editor";
import { ApprovalCard } from "./approval";
import { ElicitationForm } from "./elicitation-form";
import { StructuredView } from "./structured-view";
import { AppView } from "./app-view";
import { OpenResource } from "./resource-view";
import { MarkdownImage } from "../shared/gated-image";
import { formatSize, Json, LargeText, MARKDOWN_MAX_CHARS } from "../shared/large-output";

const markdownComponents = { img: MarkdownImage };

type ToolPart = ToolUIPart | DynamicToolUIPart;

type McpContent =
  | { type: "text"; text: string }
  | { type: "image" | "audio"; data: string; mimeType: string }
  | { type: "resource_link"; uri: string; name?: string; title?: string; description?: string }
  | { type: "resource"; resource: { uri: string; text?: string; blob?: string; mimeType?: string } }
  | { type: string; [k: string]: unknown };
type McpResult = { content: McpContent[]; structuredContent?: unknown; parleyTruncated?: Truncation };
type Running = { running: true; progress?: { progress: number; total?: number; message?: string }; elicitation?: ElicitationView };

const isMcpResult = (o: unknown): o is McpResult => !!o && typeof o === "object" && Array.isArray((o as McpResult).content);
const isRunning = (o: unknown): o is Running => !!o && typeof o === "object" && (o as Running).running === true;
const isHttp = (u: string) => /^https?:\/\//i.test(u);

function ContentBlock({ block, serverId }: { block: McpContent; serverId?: string }) {
  switch (block.type) {
    case "text": {
      const text = (block as { text: string }).text;
      return text.length > MARKDOWN_MAX_CHARS ? (
        <LargeText text={text} label="Long text" />
      ) : (
        <Streamdown mode="static" className="prose-chat" components={markdownComponents}>
          {text}
        </Streamdown>
      );
    }
    case "image": {
      const b = block as { data: string; mimeType: string };
      // At its own size, up to the column (self-start: the block's flex column would stretch it).
      return (
        // eslint-disable-next-line @next/next/no-img-element -- tool output, a data URL
        <img src={`data:${b.mimeType};base64,${b.data}`} alt="Image returned by the tool" className="h-auto max-h-80 w-auto max-w-full self-start rounded-md" />
      );
    }
    case "audio": {
      const b = block as { data: string; mimeType: string };
      return <audio controls src={`data:${b.mimeType};base64,${b.data}`} />;
    }
    case "resource_link": {
      const b = block as { uri: string; name?: string; title?: string; description?: string };
      const label = b.title ?? b.name ?? b.uri;
      return (
        <p className="flex items-start gap-1.5">
          <Link2 className="mt-0.5 size-3.5 shrink-0 text-zinc-600 dark:text-zinc-400" aria-hidden />
          <span>
            {isHttp(b.uri) ? (
              <a href={b.uri} target="_blank" rel="noreferrer noopener" className="text-accent-text underline">
                {label}
              </a>
            ) : (
              <span title={b.uri} className="font-medium">
                {label} <span className="font-mono text-xs text-zinc-600 dark:text-zinc-400">{b.uri}</span>{" "}
                <OpenResource serverId={serverId} uri={b.uri} label={label} />
              </span>
            )}
            {b.description && <span className="block text-xs text-zinc-600 dark:text-zinc-400">{b.description}</span>}
          </span>
        </p>
      );
    }
    case "resource": {
      const r = (block as { resource: { uri: string; text?: string; mimeType?: string } }).resource;
      return (
        <div>
          <p className="font-mono text-xs text-zinc-600 dark:text-zinc-400">{r.uri}</p>
          {r.text !== undefined && r.text.length > MARKDOWN_MAX_CHARS ? (
            <LargeText text={r.text} label="Long resource" />
          ) : r.text !== undefined ? (
            <pre
              tabIndex={0}
              role="region"
              aria-label={`Resource ${r.uri}`}
              className="mt-1 max-h-64 overflow-auto whitespace-pre-wrap rounded bg-zinc-100 p-2 text-xs dark:bg-zinc-900"
            >
              {r.text}
            </pre>
          ) : (
            <p className="text-xs text-zinc-600 dark:text-zinc-400">Binary resource ({r.mimeType ?? "unknown type"})</p>
          )}
        </div>
      );
    }
    default:
      return <Json value={block} label={`Content (${block.type})`} />;
  }
}

/** What was cut from a result too large to keep, and what the model received. */
function TruncatedNote({ t }: { t: Truncation }) {
  const left = [
    t.droppedBlocks ? `${t.droppedBlocks} more content block${t.droppedBlocks === 1 ? "" : "s"}` : "",
    t.droppedStructured ? "the structured content" : "",
  ]
    .filter(Boolean)
    .join(" and ");
  return (
    <p
      role="note"
      data-truncated
      className="flex items-start gap-1.5 rounded bg-amber-50 px-2 py-1 text-xs text-amber-900 dark:bg-amber-950 dark:text-amber-100"
    >
      <Scissors className="mt-0.5 size-3.5 shrink-0" aria-hidden />
      <span>
        Truncated: the tool returned {formatSize(t.receivedChars)}; the first {formatSize(t.keptChars)} are shown and stored{left ? ` (${left} left out)` : ""}.
        The model received this first part with a note that the result was cut.
      </span>
    </p>
  );
}

function McpResultView({ result, serverId }: { result: McpResult; serverId?: string }) {
  return (
    <div className="flex flex-col gap-2" data-tool-result="mcp">
      {result.parleyTruncated && <TruncatedNote t={result.parleyTruncated} />}
      {result.content.map((b, i) => (
        <ContentBlock key={i} block={b} serverId={serverId} />
      ))}
      {result.structuredContent !== undefined && <StructuredView value={result.structuredContent} />}
    </div>
  );
}

function ProgressView({ progress }: { progress?: Running["progress"] }) {
  const total = progress?.total;
  const pct = progress && total ? Math.max(0, Math.min(100, (progress.progress / total) * 100)) : undefined;
  return (
    <div className="flex flex-col gap-1">
      <div
        role="progressbar"
        aria-label="Tool progress"
        aria-valuemin={0}
        aria-valuemax={total ?? undefined}
        aria-valuenow={progress?.progress}
        aria-valuetext={progress ? (total ? `${progress.progress} of ${total}` : String(progress.progress)) : "Working"}
        className="h-1.5 w-full overflow-hidden rounded-full bg-zinc-200 dark:bg-zinc-800"
      >
        <div
          className={`h-full bg-accent transition-[width] ${pct === undefined ? "w-1/3 animate-pulse" : ""}`}
          style={pct === undefined ? undefined : { width: `${pct}%` }}
        />
      </div>
      {progress && (
        <p className="text-xs text-zinc-600 dark:text-zinc-400">
          {total ? `${progress.progress} of ${total}` : `${progress.progress}`}
          {progress.message ? ` · ${progress.message}` : ""}
        </p>
      )}
    </div>
  );
}

export function ToolBlock({ part }: { part: ToolPart }) {
  const name = getToolName(part);
  const meta = (part as { toolMetadata?: { source?: string; serverName?: string; toolName?: string; toolId?: string; appUri?: string } }).toolMetadata;
  const label = meta?.source === "mcp" ? `${meta.serverName} · ${meta.toolName}` : name;
  const details = (part as { approval?: ApprovalDetails }).approval;
  const autoRule = (part as { autoRule?: string }).autoRule;
  const running =
    part.state === "input-streaming" ||
    part.state === "input-available" ||
    part.state === "approval-responded" ||
    (part.state === "output-available" && part.preliminary === true);
  const live = part.state === "output-available" && part.preliminary ? part.output : undefined;
  const asking = isRunning(live) ? live.elicitation : undefined;
  const coded =
    part.state === "output-error" ? (parseToolError(part.errorText) ?? { code: undefined, message: part.errorText ?? "The tool failed." }) : undefined;
  // An aborted call (stopped, interrupted, superseded, step limit): the server's face, not an error.
  const aborted = coded?.code === "Aborted" ? coded.message : undefined;
  const error = aborted ? undefined : coded;
  return (
    <div
      className="rounded-md border border-zinc-200 text-sm dark:border-zinc-800"
      data-tool-state={running ? "running" : aborted ? "aborted" : part.state}
      data-tool-name={name}
    >
      <div className="flex items-center gap-2 border-b border-zinc-200 px-3 py-2 dark:border-zinc-800">
        <Wrench className="size-4 text-zinc-600 dark:text-zinc-400" aria-hidden />
        {meta?.source === "mcp" ? (
          <span className="text-xs">
            <span className="text-zinc-600 dark:text-zinc-400">{meta.serverName} · </span>
            <span className="font-mono">{meta.toolName}</span>
          </span>
        ) : (
          <span className="font-mono text-xs">{name}</span>
        )}
        <span className="ml-auto flex items-center gap-1 text-xs text-zinc-600 dark:text-zinc-400">
          {running && <Loader2 className="size-3 animate-spin" aria-hidden />}
          {part.state === "output-available" && !running && <CheckCircle2 className="size-3 text-green-600" aria-hidden />}
          {(error || part.state === "output-denied") && <XCircle className="size-3 text-red-700 dark:text-red-400" aria-hidden />}
          {aborted && <CircleSlash className="size-3 text-zinc-600 dark:text-zinc-400" aria-hidden />}
          {running
            ? part.state === "input-streaming"
              ? "Preparing"
              : asking
                ? "Waiting for your answer"
                : "Running"
            : aborted
              ? abortedLabel(aborted)
              : labelOf(part.state)}
        </span>
      </div>
      <div className="flex flex-col gap-2 px-3 py-2">
        {part.input !== undefined && <Json value={part.input} label="Input" open={part.state === "approval-requested"} />}
        {running && part.state !== "input-streaming" && <ProgressView progress={isRunning(live) ? live.progress : undefined} />}
        {running && asking && <ElicitationForm key={asking.id} view={asking} serverName={meta?.serverName} />}
        {part.state === "output-available" &&
          !running &&
          (isMcpResult(part.output) ? (
            <McpResultView result={part.output} serverId={(meta as { serverId?: string } | undefined)?.serverId} />
          ) : (
            <Json value={part.output} label="Result" open />
          ))}
        {part.state === "output-available" && !running && meta?.source === "mcp" && meta.appUri && isMcpResult(part.output) && (
          <AppView toolCallId={part.toolCallId} title={(part as { title?: string }).title ?? meta.toolName ?? name} input={part.input} output={part.output} />
        )}
        {aborted && (
          <p className="text-zinc-600 dark:text-zinc-400" data-tool-face="aborted">
            {aborted}
          </p>
        )}
        {error && (
          <p className="text-red-700 dark:text-red-300" data-error-code={error.code}>
            {error.code && <span className="mr-1 rounded bg-red-100 px-1.5 py-0.5 font-mono text-xs dark:bg-red-900">{error.code}</span>}
            {error.message}
          </p>
        )}
        {part.state === "approval-requested" && (
          <ApprovalCard approvalId={part.approval.id} toolLabel={label} toolId={meta?.toolId} input={part.input} details={details} />
        )}
        {part.state === "approval-responded" && (
          <p className="text-zinc-600 dark:text-zinc-400">
            {decisionText(part.approval.approved === true, details)} {part.approval.approved ? "Running…" : "Telling the model…"}
          </p>
        )}
        {details?.original !== undefined && part.state !== "approval-requested" && <InputDiff original={details.original} edited={part.input} />}
        {(part.state === "output-available" || part.state === "output-error") && part.approval?.approved && (
          <p className="text-xs text-zinc-600 dark:text-zinc-400" data-decision>
            {decisionText(true, details)}
          </p>
        )}
        {part.state === "output-denied" && (
          <p className="text-zinc-600 dark:text-zinc-400" data-decision>
            {decisionText(false, details)}
            {part.approval.reason ? ` Reason: ${part.approval.reason}` : ""}
          </p>
        )}
        {autoRule && (
          <p className="text-xs text-zinc-600 dark:text-zinc-400" data-auto-rule>
            Ran without asking: rule “{autoRule}”.
          </p>
        )}
        {part.providerExecuted && <p className="text-xs text-zinc-600 dark:text-zinc-400">Ran at the model&apos;s provider, without approval.</p>}
      </div>
    </div>
  );
}

/** Who decided and when: "Approved by Ana at 14:05", "Edited and approved by …", "Denied: no decision in time". */
function decisionText(approved: boolean, d?: ApprovalDetails): string {
  const when = d?.decidedAt ? ` at ${new Date(d.decidedAt).toLocaleString([], { dateStyle: "short", timeStyle: "short" })}` : "";
  // The rule that asked (or escalated to an admin), named after any decision, a time limit's too.
  const rule = d?.rule ? ` Asked by the rule “${d.rule}”.` : "";
  if (!approved && !d?.decidedBy && d?.decidedAt) return `Denied: nobody decided in time${when}.${rule}`;
  const who = d?.decidedBy ? `${d.decidedBy}${d.by === "admin" ? " (admin)" : ""}` : d?.by === "admin" ? "an admin" : "you";
  const verb = approved ? (d?.original !== undefined ? "Edited and approved" : "Approved") : "Denied";
  return `${verb} by ${who}${when}.${rule}`;
}

/** The short header label of an aborted call's face (the full sentence shows below it). */
function abortedLabel(face: string): string {
  if (face.startsWith("Interrupted")) return "Interrupted";
  if (face.startsWith("Stopped before")) return "Stopped before it ran";
  if (face.startsWith("Stopped")) return "Stopped";
  return "Not run";
}

function labelOf(state: ToolPart["state"]): string {
  switch (state) {
    case "input-streaming":
      return "Preparing";
    case "input-available":
    case "approval-responded":
      return "Running";
    case "approval-requested":
      return "Waiting for approval";
    case "output-available":
      return "Done";
    case "output-error":
      return "Error";
    case "output-denied":
      return "Denied";
  }
}
