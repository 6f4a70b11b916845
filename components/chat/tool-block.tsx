"use client";
// The generic tool block: one container for every state of a call, driven by the part's state. The
// header names the tool and says where the call is (preparing, running, waiting, done, error, denied,
// aborted); below it, the faces of that state: the input, the progress and the server's question while
// it runs (tool-progress.tsx), the result (an MCP result by content type, mcp-result-view.tsx, or
// JSON) and, for a tool with an MCP Apps view, the view (app-view.tsx), the coded error or the aborted
// face, the approval card while it waits (approval.tsx), and who decided and when.
import { CheckCircle2, CircleSlash, Loader2, Wrench, XCircle } from "lucide-react";
import { getToolName, type DynamicToolUIPart, type ToolUIPart } from "ai";
import type { ApprovalDetails } from "@/lib/messages/approval-details";
import { parseToolError } from "@/lib/format/tool-error";
import { InputDiff } from "../shared/input-editor";
import { Json } from "../shared/large-output";
import { ApprovalCard } from "./approval";
import { AppView } from "./app-view";
import { ElicitationForm } from "./elicitation-form";
import { isMcpResult, McpResultView } from "./mcp-result-view";
import { isRunning, ProgressView } from "./tool-progress";
import { KnowledgeResultView } from "./knowledge-result";
import { isKnowledgeResult } from "@/lib/format/knowledge-result";

const isKnowledgeQuery = (input: unknown): input is { query: string } => typeof (input as { query?: unknown } | null)?.query === "string";

type ToolPart = ToolUIPart | DynamicToolUIPart;

export function ToolBlock({ part }: { part: ToolPart }) {
  const name = getToolName(part);
  const meta = (part as { toolMetadata?: { source?: string; serverName?: string; toolName?: string; toolId?: string; appUri?: string } }).toolMetadata;
  const label = meta?.source === "mcp" ? `${meta.serverName} · ${meta.toolName}` : meta?.source === "knowledge" ? "Search knowledge" : name;
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
    <div className="rounded-md border border-line text-sm" data-tool-state={running ? "running" : aborted ? "aborted" : part.state} data-tool-name={name}>
      <div className="flex items-center gap-2 border-b border-line px-3 py-2">
        <Wrench className="size-4 text-subtle" aria-hidden />
        {meta?.source === "mcp" ? (
          <span className="text-xs">
            <span className="text-subtle">{meta.serverName} · </span>
            <span className="font-mono">{meta.toolName}</span>
          </span>
        ) : meta?.source === "knowledge" ? (
          <span className="text-xs">
            <span className="font-medium">Search knowledge</span>
            {isKnowledgeQuery(part.input) && <span className="text-subtle"> · “{part.input.query}”</span>}
          </span>
        ) : (
          <span className="font-mono text-xs">{name}</span>
        )}
        <span className="ml-auto flex items-center gap-1 text-xs text-subtle">
          {running && <Loader2 className="size-3 animate-spin" aria-hidden />}
          {part.state === "output-available" && !running && <CheckCircle2 className="size-3 text-success" aria-hidden />}
          {(error || part.state === "output-denied") && <XCircle className="size-3 text-danger" aria-hidden />}
          {aborted && <CircleSlash className="size-3 text-subtle" aria-hidden />}
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
          ) : isKnowledgeResult(part.output) ? (
            <KnowledgeResultView result={part.output} />
          ) : (
            <Json value={part.output} label="Result" open />
          ))}
        {part.state === "output-available" && !running && meta?.source === "mcp" && meta.appUri && isMcpResult(part.output) && (
          <AppView toolCallId={part.toolCallId} title={(part as { title?: string }).title ?? meta.toolName ?? name} input={part.input} output={part.output} />
        )}
        {aborted && (
          <p className="text-subtle" data-tool-face="aborted">
            {aborted}
          </p>
        )}
        {error && (
          <p className="text-error" data-error-code={error.code}>
            {error.code && <span className="mr-1 rounded bg-error-chip px-1.5 py-0.5 font-mono text-xs">{error.code}</span>}
            {error.message}
          </p>
        )}
        {part.state === "approval-requested" && (
          <ApprovalCard approvalId={part.approval.id} toolLabel={label} toolId={meta?.toolId} input={part.input} details={details} />
        )}
        {part.state === "approval-responded" && (
          <p className="text-subtle">
            {decisionText(part.approval.approved === true, details)} {part.approval.approved ? "Running…" : "Telling the model…"}
          </p>
        )}
        {details?.original !== undefined && part.state !== "approval-requested" && <InputDiff original={details.original} edited={part.input} />}
        {(part.state === "output-available" || part.state === "output-error") && part.approval?.approved && (
          <p className="text-xs text-subtle" data-decision>
            {decisionText(true, details)}
          </p>
        )}
        {part.state === "output-denied" && (
          <p className="text-subtle" data-decision>
            {decisionText(false, details)}
            {part.approval.reason ? ` Reason: ${part.approval.reason}` : ""}
          </p>
        )}
        {autoRule && (
          <p className="text-xs text-subtle" data-auto-rule>
            Ran without asking: rule “{autoRule}”.
          </p>
        )}
        {part.providerExecuted && <p className="text-xs text-subtle">Ran at the model&apos;s provider, without approval.</p>}
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
