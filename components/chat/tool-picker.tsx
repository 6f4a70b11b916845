"use client";
// The tool picker in the composer: the team's MCP servers with their live status and enabled tools;
// a member turns servers and single tools on or off for this chat (saved at once, used from the next
// message). Servers that are down are shown with their error; their tools are skipped in a turn.
import { useCallback, useEffect, useState } from "react";
import { Wrench } from "lucide-react";
import type { McpServerView } from "@/lib/mcp/servers";
import type { ToolSelection } from "@/lib/tools/selection";
import { McpStatusBadge } from "../admin/mcp-status";

type Data = { servers: McpServerView[]; selection: ToolSelection };

async function fetchTools(chatId: string): Promise<Data | undefined> {
  const res = await fetch(`/api/chat/${chatId}/tools`, { cache: "no-store" }).catch(() => undefined);
  return res?.ok ? ((await res.json()) as Data) : undefined;
}

export function ToolPicker({ chatId, disabled }: { chatId: string; disabled?: boolean }) {
  const [data, setData] = useState<Data>();
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string>();

  const load = useCallback(() => {
    fetchTools(chatId).then((d) => d && setData(d));
  }, [chatId]);

  useEffect(() => load(), [load]);

  useEffect(() => {
    if (!open) return;
    const timer = setInterval(load, 3000);
    const onKey = (e: KeyboardEvent) => e.key === "Escape" && setOpen(false);
    document.addEventListener("keydown", onKey);
    return () => {
      clearInterval(timer);
      document.removeEventListener("keydown", onKey);
    };
  }, [open, load]);

  async function save(selection: ToolSelection) {
    if (!data) return;
    const previous = data.selection;
    setData({ ...data, selection });
    setError(undefined);
    const res = await fetch(`/api/chat/${chatId}/tools`, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify(selection) }).catch(() => undefined);
    if (!res?.ok) {
      setData((d) => (d ? { ...d, selection: previous } : d));
      setError("Could not save the tool choice. Try again.");
    }
  }

  if (!data || !data.servers.length) return null;
  const sel = data.selection;
  const activeTools = data.servers.filter((s) => s.enabled && sel.servers.includes(s.id)).flatMap((s) => s.tools.filter((t) => sel.tools.includes(t.id)));

  function toggleServer(s: McpServerView, on: boolean) {
    const ids = s.tools.map((t) => t.id);
    void save({
      servers: on ? [...new Set([...sel.servers, s.id])] : sel.servers.filter((x) => x !== s.id),
      tools: on ? [...new Set([...sel.tools, ...ids])] : sel.tools.filter((x) => !ids.includes(x)),
    });
  }

  function toggleTool(s: McpServerView, toolId: string, on: boolean) {
    const tools = on ? [...new Set([...sel.tools, toolId])] : sel.tools.filter((x) => x !== toolId);
    const anyOn = s.tools.some((t) => tools.includes(t.id));
    void save({ servers: anyOn ? [...new Set([...sel.servers, s.id])] : sel.servers.filter((x) => x !== s.id), tools });
  }

  return (
    <div className="relative">
      <button
        type="button"
        onClick={() => {
          if (!open) load();
          setOpen((o) => !o);
        }}
        disabled={disabled}
        aria-expanded={open}
        aria-controls="tool-picker-panel"
        className="inline-flex h-7 items-center gap-1 rounded-md border border-zinc-300 bg-white px-2 text-xs hover:bg-zinc-50 disabled:opacity-60 dark:border-zinc-700 dark:bg-zinc-900 dark:hover:bg-zinc-800"
      >
        <Wrench className="size-3" aria-hidden /> Tools{activeTools.length ? ` (${activeTools.length})` : ""}
      </button>
      {open && (
        <div
          id="tool-picker-panel"
          role="dialog"
          aria-label="Tools for this chat"
          className="absolute bottom-9 left-0 z-20 max-h-96 w-80 overflow-y-auto rounded-lg border border-zinc-200 bg-white p-2 text-sm shadow-lg dark:border-zinc-800 dark:bg-zinc-950"
        >
          {error && (
            <p role="alert" className="mb-2 text-xs text-red-600">
              {error}
            </p>
          )}
          <ul className="flex flex-col gap-2">
            {data.servers.map((s) => {
              const on = s.enabled && sel.servers.includes(s.id) && s.tools.some((t) => sel.tools.includes(t.id));
              return (
                <li key={s.id} className="rounded-md border border-zinc-200 p-2 dark:border-zinc-800" data-server={s.name}>
                  <label className="flex items-start gap-2">
                    <input type="checkbox" className="mt-0.5" checked={on} disabled={!s.enabled || !s.tools.length} onChange={(e) => toggleServer(s, e.target.checked)} aria-label={`Use ${s.name}`} />
                    <span className="flex min-w-0 flex-1 flex-col gap-0.5">
                      <span className="font-medium">{s.name}</span>
                      <McpStatusBadge status={s.status} detailed />
                      {!s.tools.length && s.enabled && <span className="text-xs text-zinc-500">No tools listed yet.</span>}
                    </span>
                  </label>
                  {s.enabled && s.tools.length > 0 && (
                    <ul className="ml-6 mt-1 flex flex-col gap-1">
                      {s.tools.map((t) => (
                        <li key={t.id}>
                          <label className="flex items-start gap-2 text-xs" title={t.description ?? undefined}>
                            <input type="checkbox" checked={sel.servers.includes(s.id) && sel.tools.includes(t.id)} onChange={(e) => toggleTool(s, t.id, e.target.checked)} aria-label={`Use ${s.name} ${t.name}`} />
                            <span className="min-w-0">
                              <span className="font-mono">{t.name}</span>
                              {t.description && <span className="block truncate text-zinc-500">{t.description}</span>}
                            </span>
                          </label>
                        </li>
                      ))}
                    </ul>
                  )}
                </li>
              );
            })}
          </ul>
        </div>
      )}
    </div>
  );
}
