"use client";
// The tool picker in the composer: the team's MCP servers with their live status and enabled tools;
// a member turns servers and single tools on or off for this chat (saved at once, used from the next
// message; a new chat's choice goes with its first message). Servers that are down are shown with their error; their tools are skipped in a turn.
// A Radix popover: focus moves in on open, Escape closes and returns focus to the Tools button.
import { useEffect, useState } from "react";
import { Wrench } from "lucide-react";
import type { McpServerView } from "@/lib/mcp/servers";
import type { ToolSelection } from "@/lib/tools/selection";
import { McpStatusBadge } from "../admin/mcp-status";
import { Button } from "../ui/button";
import { Popover, PopoverContent, PopoverTrigger } from "../ui/popover";
import { useToolChoice } from "./use-tool-choice";

const POLL_MS = 3000;

function withServer(sel: ToolSelection, s: McpServerView, on: boolean): ToolSelection {
  const ids = s.tools.map((t) => t.id);
  return {
    servers: on ? [...new Set([...sel.servers, s.id])] : sel.servers.filter((x) => x !== s.id),
    tools: on ? [...new Set([...sel.tools, ...ids])] : sel.tools.filter((x) => !ids.includes(x)),
  };
}

function withTool(sel: ToolSelection, s: McpServerView, toolId: string, on: boolean): ToolSelection {
  const tools = on ? [...new Set([...sel.tools, toolId])] : sel.tools.filter((x) => x !== toolId);
  const anyOn = s.tools.some((t) => tools.includes(t.id));
  return { servers: anyOn ? [...new Set([...sel.servers, s.id])] : sel.servers.filter((x) => x !== s.id), tools };
}

export function ToolPicker({ chatId, disabled, draft, onDraft }: { chatId: string; disabled?: boolean; draft?: boolean; onDraft?: (selection: ToolSelection) => void }) {
  const { servers, selection: sel, error, load, change } = useToolChoice(chatId, draft, onDraft);
  const [open, setOpen] = useState(false);

  useEffect(() => void load(), [load]);
  useEffect(() => {
    if (!open) return;
    void load(); // fresh statuses on open; the live status is polled while it is open
    const timer = setInterval(() => void load(), POLL_MS);
    return () => clearInterval(timer);
  }, [open, load]);

  if (!servers?.length || !sel) return null;
  const activeTools = servers.filter((s) => s.enabled && sel.servers.includes(s.id)).flatMap((s) => s.tools.filter((t) => sel.tools.includes(t.id)));

  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger asChild>
        <Button variant="secondary" size="xs" disabled={disabled}>
          <Wrench className="size-3" aria-hidden /> Tools{activeTools.length ? ` (${activeTools.length})` : ""}
        </Button>
      </PopoverTrigger>
      <PopoverContent side="top" aria-label="Tools for this chat" className="max-h-96">
        {error && (
          <p role="alert" className="mb-2 text-xs text-red-700 dark:text-red-400">
            {error}
          </p>
        )}
        <ul className="flex flex-col gap-2">
          {servers.map((s) => {
            const on = s.enabled && sel.servers.includes(s.id) && s.tools.some((t) => sel.tools.includes(t.id));
            return (
              <li key={s.id} className="rounded-md border border-zinc-200 p-2 dark:border-zinc-800" data-server={s.name}>
                <label className="flex items-start gap-2">
                  <input
                    type="checkbox"
                    className="mt-0.5 size-4 accent-accent"
                    checked={on}
                    disabled={!s.enabled || !s.tools.length}
                    onChange={(e) => change((current) => withServer(current, s, e.target.checked))}
                    aria-label={`Use ${s.name}`}
                  />
                  <span className="flex min-w-0 flex-1 flex-col gap-0.5">
                    <span className="font-medium">{s.name}</span>
                    <McpStatusBadge status={s.status} detailed />
                    {!s.tools.length && s.enabled && <span className="text-xs text-zinc-600 dark:text-zinc-400">No tools listed yet.</span>}
                  </span>
                </label>
                {s.enabled && s.tools.length > 0 && (
                  <ul className="mt-1 ml-6 flex flex-col gap-1">
                    {s.tools.map((t) => (
                      <li key={t.id}>
                        <label className="flex items-start gap-2 text-xs" title={t.description ?? undefined}>
                          <input
                            type="checkbox"
                            className="accent-accent"
                            checked={sel.servers.includes(s.id) && sel.tools.includes(t.id)}
                            onChange={(e) => change((current) => withTool(current, s, t.id, e.target.checked))}
                            aria-label={`Use ${s.name} ${t.name}`}
                          />
                          <span className="min-w-0">
                            <span className="font-mono">{t.name}</span>
                            {t.description && <span className="block truncate text-zinc-600 dark:text-zinc-400">{t.description}</span>}
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
      </PopoverContent>
    </Popover>
  );
}
