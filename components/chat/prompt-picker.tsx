"use client";
// Prompts as commands: typing "/" at the start of the message box lists the team's MCP prompts
// (filtered by what follows the slash); choosing one asks for its arguments in a small form, and the
// prompt's messages replace the "/…" text in the box, ready to edit and send.
import { useState } from "react";
import { Loader2, SquareSlash } from "lucide-react";
import type { CatalogServer } from "@/lib/chat/mcp-catalog";
import { Button } from "../ui/button";
import { Input } from "../ui/input";
import type { Catalog } from "./use-mcp-catalog";

type Prompt = CatalogServer["prompts"][number] & { serverId: string; serverName: string };

function ArgumentsForm({ prompt, onDone, onBack }: { prompt: Prompt; onDone: (text: string) => void; onBack: () => void }) {
  const [values, setValues] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string>();
  async function run() {
    setBusy(true);
    setProblem(undefined);
    try {
      const args = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ""));
      const res = await fetch(`/api/mcp/servers/${encodeURIComponent(prompt.serverId)}/prompt`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: prompt.name, arguments: args }) });
      const body = (await res.json().catch(() => null)) as { messages?: { role: string; text: string }[]; error?: { message?: string } } | null;
      if (!res.ok || !body?.messages) throw new Error(body?.error?.message ?? "The prompt could not be loaded.");
      onDone(body.messages.map((m) => m.text).join("\n\n"));
    } catch (err) {
      setProblem((err as Error).message);
    } finally {
      setBusy(false);
    }
  }
  return (
    <form
      aria-label={`Arguments of ${prompt.title ?? prompt.name}`}
      className="flex flex-col gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        void run();
      }}
    >
      <p className="font-medium">
        {prompt.title ?? prompt.name} <span className="text-xs font-normal text-zinc-600 dark:text-zinc-400">· {prompt.serverName}</span>
      </p>
      {prompt.arguments.map((a, i) => (
        <label key={a.name} className="flex flex-col gap-0.5 text-xs">
          {a.name}
          {a.required ? " (required)" : ""}
          {a.description && <span className="text-zinc-600 dark:text-zinc-400">{a.description}</span>}
          <Input size="sm" autoFocus={i === 0} required={a.required} value={values[a.name] ?? ""} onChange={(e) => setValues((o) => ({ ...o, [a.name]: e.target.value }))} />
        </label>
      ))}
      {problem && <p role="alert" className="text-xs text-red-700 dark:text-red-400">{problem}</p>}
      <div className="flex gap-2">
        <Button type="submit" size="xs" disabled={busy}>
          {busy && <Loader2 className="size-3 animate-spin" aria-hidden />} Insert prompt
        </Button>
        <Button size="xs" variant="ghost" onClick={onBack}>
          Back
        </Button>
      </div>
    </form>
  );
}

/** The "/" list above the message box; `query` is what follows the slash. */
export function PromptPicker({ catalog, query, onInsert, onClose }: { catalog: Catalog; query: string; onInsert: (text: string) => void; onClose: () => void }) {
  const [chosen, setChosen] = useState<Prompt>();
  const prompts: Prompt[] = (catalog.servers ?? []).flatMap((s) => s.prompts.map((p) => ({ ...p, serverId: s.id, serverName: s.name })));
  const q = query.toLowerCase();
  const shown = prompts.filter((p) => `${p.name} ${p.title ?? ""}`.toLowerCase().includes(q)).slice(0, 30);
  return (
    <div
      className="mx-auto mb-2 flex max-h-72 max-w-3xl flex-col gap-1 overflow-y-auto rounded-lg border border-zinc-200 bg-white p-2 text-sm shadow-md dark:border-zinc-700 dark:bg-zinc-950"
      role="region"
      aria-label="Prompts"
      onKeyDown={(e) => {
        if (e.key === "Escape") onClose();
      }}
    >
      {chosen ? (
        <ArgumentsForm prompt={chosen} onBack={() => setChosen(undefined)} onDone={onInsert} />
      ) : (
        <>
          {catalog.loading && (
            <p className="flex items-center gap-2 text-zinc-600 dark:text-zinc-400">
              <Loader2 className="size-4 animate-spin" aria-hidden /> Loading prompts…
            </p>
          )}
          {catalog.error && <p role="alert" className="text-red-700 dark:text-red-400">{catalog.error}</p>}
          {catalog.servers && !shown.length && <p className="text-zinc-600 dark:text-zinc-400">No prompt matches “/{query}”.</p>}
          {shown.map((p) => (
            <Button
              key={`${p.serverId}:${p.name}`}
              variant="ghost"
              size="sm"
              className="h-auto justify-start py-1 text-left whitespace-normal"
              onClick={() => (p.arguments.length ? setChosen(p) : void fetchInsert(p, onInsert))}
            >
              <SquareSlash className="size-4 shrink-0" aria-hidden />
              <span>
                {p.title ?? p.name} <span className="text-xs text-zinc-600 dark:text-zinc-400">· {p.serverName}</span>
                {p.description && <span className="block text-xs text-zinc-600 dark:text-zinc-400">{p.description}</span>}
              </span>
            </Button>
          ))}
        </>
      )}
    </div>
  );
}

async function fetchInsert(p: Prompt, onInsert: (text: string) => void) {
  const res = await fetch(`/api/mcp/servers/${encodeURIComponent(p.serverId)}/prompt`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: p.name, arguments: {} }) });
  const body = (await res.json().catch(() => null)) as { messages?: { text: string }[] } | null;
  if (res.ok && body?.messages) onInsert(body.messages.map((m) => m.text).join("\n\n"));
}
