"use client";
// The running face of a tool call: its live output (the preliminary output a running call sends,
// with the server's progress and any question it asks the member) and the progress bar, which pulses
// until the server says how far it is.
import type { ElicitationView } from "@/lib/mcp-chat/elicitations";

type Running = { running: true; progress?: { progress: number; total?: number; message?: string }; elicitation?: ElicitationView };

/** Whether a preliminary output is a running call's live output. */
export const isRunning = (o: unknown): o is Running => !!o && typeof o === "object" && (o as Running).running === true;

export function ProgressView({ progress }: { progress?: Running["progress"] }) {
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
        className="h-1.5 w-full overflow-hidden rounded-full bg-line"
      >
        <div
          className={`h-full bg-accent transition-[width] ${pct === undefined ? "w-1/3 animate-pulse" : ""}`}
          style={pct === undefined ? undefined : { width: `${pct}%` }}
        />
      </div>
      {progress && (
        <p className="text-xs text-subtle">
          {total ? `${progress.progress} of ${total}` : `${progress.progress}`}
          {progress.message ? ` · ${progress.message}` : ""}
        </p>
      )}
    </div>
  );
}
