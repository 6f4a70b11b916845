"use client";
// What an MCP Apps view asks the member, shown under the view while the view's request waits: open a
// link, send a message, or run a tool that asks for approval before it runs (its name and the input the
// view gave it). Nothing happens until the member answers; "Cancel" / "Deny" tells the view no.
import { Button } from "../ui/button";

export type AppAsk =
  | { kind: "link"; url: string; done: (ok: boolean) => void }
  | { kind: "message"; text: string; done: (ok: boolean) => void }
  | { kind: "tool"; name: string; input: Record<string, unknown>; done: (ok: boolean) => void };

const LABEL: Record<AppAsk["kind"], string> = {
  link: "The app asks to open a link",
  message: "The app asks to send a message",
  tool: "The app asks to run a tool",
};

function what(ask: AppAsk): { lead: string; detail: string; yes: string; no: string } {
  if (ask.kind === "link") return { lead: "The app asks to open this link in a new tab:", detail: ask.url, yes: "Open link", no: "Cancel" };
  if (ask.kind === "message") return { lead: "The app asks to send this message in the chat:", detail: ask.text, yes: "Send message", no: "Cancel" };
  return {
    lead: `The app asks to run “${ask.name}”, which asks for your approval first, with this input:`,
    detail: JSON.stringify(ask.input, null, 2).slice(0, 5000),
    yes: "Approve",
    no: "Deny",
  };
}

export function AppAskCard({ ask, answer, note }: { ask: AppAsk; answer: (ok: boolean) => void; note?: string }) {
  const { lead, detail, yes, no } = what(ask);
  return (
    <div role="group" aria-label={LABEL[ask.kind]} data-app-ask={ask.kind} className="flex flex-col gap-2 rounded-md bg-warning p-3">
      <p className="text-sm text-strong">{lead}</p>
      <pre className="max-h-48 overflow-auto whitespace-pre-wrap break-all rounded bg-surface px-2 py-1 font-mono text-xs text-strong">{detail}</pre>
      <div className="flex gap-2">
        <Button size="sm" onClick={() => answer(true)}>
          {yes}
        </Button>
        <Button size="sm" variant="secondary" onClick={() => answer(false)}>
          {no}
        </Button>
      </div>
      {note && (
        <p role="status" className="text-xs text-strong">
          {note}
        </p>
      )}
    </div>
  );
}
