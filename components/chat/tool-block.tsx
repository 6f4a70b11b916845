"use client";
// The generic tool block: one renderer driven by the part's state (input, running, result, error,
// denial). Tool-specific renderers may register by tool name; none are required.
import { CheckCircle2, Loader2, Wrench, XCircle } from "lucide-react";
import type { DynamicToolUIPart, ToolUIPart } from "ai";

type ToolPart = ToolUIPart | DynamicToolUIPart;

export type ToolRenderer = (part: ToolPart) => React.ReactNode;
const renderers = new Map<string, ToolRenderer>();

/** Registers a custom renderer for a tool's result. */
export function registerToolRenderer(toolName: string, render: ToolRenderer) {
  renderers.set(toolName, render);
}

export function toolNameOf(part: ToolPart): string {
  return part.type === "dynamic-tool" ? part.toolName : part.type.slice(5);
}

function Json({ value, label }: { value: unknown; label: string }) {
  return (
    <div>
      <p className="text-xs font-medium text-zinc-500">{label}</p>
      <pre className="mt-1 max-h-64 overflow-auto rounded bg-zinc-100 p-2 text-xs dark:bg-zinc-900">{JSON.stringify(value, null, 2)}</pre>
    </div>
  );
}

export function ToolBlock({ part }: { part: ToolPart }) {
  const name = toolNameOf(part);
  const custom = renderers.get(name);
  const running = part.state === "input-streaming" || part.state === "input-available" || part.state === "approval-responded";
  return (
    <div className="rounded-md border border-zinc-200 text-sm dark:border-zinc-800" data-tool-state={part.state}>
      <div className="flex items-center gap-2 border-b border-zinc-200 px-3 py-2 dark:border-zinc-800">
        <Wrench className="size-4 text-zinc-500" aria-hidden />
        <span className="font-mono text-xs">{name}</span>
        <span className="ml-auto flex items-center gap-1 text-xs text-zinc-500">
          {running && <Loader2 className="size-3 animate-spin" aria-hidden />}
          {part.state === "output-available" && <CheckCircle2 className="size-3 text-green-600" aria-hidden />}
          {(part.state === "output-error" || part.state === "output-denied") && <XCircle className="size-3 text-red-600" aria-hidden />}
          {labelOf(part.state)}
        </span>
      </div>
      <div className="flex flex-col gap-2 px-3 py-2">
        {part.input !== undefined && <Json value={part.input} label="Input" />}
        {part.state === "output-available" && (custom ? custom(part) : <Json value={part.output} label="Result" />)}
        {part.state === "output-error" && <p className="text-red-700 dark:text-red-300">{part.errorText}</p>}
        {part.state === "output-denied" && <p className="text-zinc-600">Denied{part.approval.reason ? `: ${part.approval.reason}` : "."}</p>}
      </div>
    </div>
  );
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
