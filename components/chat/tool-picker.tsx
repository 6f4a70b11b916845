"use client";
// The tool picker in the composer: the team's MCP servers with their live status and the tools this
// member may use (never the ones an admin set to "Never offer"), each marked when it asks first. A
// member turns servers and single tools on or off for this chat (saved at once, used from the next
// message, and remembered for their next new chats); a draft chat starts from the member's choice for
// new chats, which goes with its first message.
// Its popover: composer-popover.tsx.
// A server where members use their own account and this member has not connected (or their
// connection expired or was revoked) shows its tools as "Connect to use", with a Connect link.
import { useEffect, useState } from "react";
import { Hand, Wrench } from "lucide-react";
import type { PickerServer, PickerTool } from "@/lib/tools/member-tools";
import type { ToolSelection } from "@/lib/tools/selection";
import { McpStatusBadge } from "../shared/mcp-status-badge";
import { ComposerPopover } from "./composer-popover";
import { useLive } from "../shared/live";
import { useToolChoice } from "./use-tool-choice";

function withServer(sel: ToolSelection, s: PickerServer, on: boolean): ToolSelection {
  const ids = s.tools.map((t) => t.id);
  return {
    servers: on ? [...new Set([...sel.servers, s.id])] : sel.servers.filter((x) => x !== s.id),
    tools: on ? [...new Set([...sel.tools, ...ids])] : sel.tools.filter((x) => !ids.includes(x)),
  };
}

function withTool(sel: ToolSelection, s: PickerServer, toolId: string, on: boolean): ToolSelection {
  const tools = on ? [...new Set([...sel.tools, toolId])] : sel.tools.filter((x) => x !== toolId);
  const anyOn = s.tools.some((t) => tools.includes(t.id));
  return { servers: anyOn ? [...new Set([...sel.servers, s.id])] : sel.servers.filter((x) => x !== s.id), tools };
}

function AsksFirst({ id, tool }: { id: string; tool: PickerTool }) {
  const label = tool.approver === "admin" ? (tool.rules ? "an admin may approve" : "an admin approves") : tool.rules ? "may ask first" : "asks first";
  return (
    <span id={id} className="ml-1 inline-flex items-center gap-0.5 rounded bg-caution-soft px-1 text-[11px] font-medium text-warning-foreground">
      <Hand className="size-3" aria-hidden /> {label}
    </span>
  );
}

/** "Connect to use": OAuth servers start the member's sign-in; key servers go to Settings → Connections. */
function ConnectToUse({ server }: { server: PickerServer }) {
  const returnTo = typeof window === "undefined" ? "" : window.location.pathname;
  const href = server.memberAuth === "oauth" ? `/api/mcp/connections/${server.id}/connect?returnTo=${encodeURIComponent(returnTo)}` : "/settings/connections";
  return (
    <p className="mt-1 ml-6 flex items-center gap-2 text-xs text-soft" data-connect={server.name}>
      <span>Connect to use</span>
      <a
        href={href}
        className="rounded font-medium text-accent-text underline focus-visible:outline-2 focus-visible:outline-offset-2"
        aria-label={`Connect ${server.name}`}
      >
        Connect
      </a>
    </p>
  );
}

export function ToolPicker({
  chatId,
  disabled,
  draft,
  onDraft,
  start,
}: {
  chatId: string;
  disabled?: boolean;
  draft?: boolean;
  onDraft?: (selection: ToolSelection) => void;
  start?: ToolSelection;
}) {
  const { servers, selection: sel, error, load, change } = useToolChoice(chatId, draft, onDraft, start);
  const [open, setOpen] = useState(false);

  useEffect(() => void load(), [load]);
  useEffect(() => {
    if (open) void load(); // fresh statuses on open
  }, [open, load]);
  // A server's status or tools changed (the page's live channel): the picker and its count follow.
  useLive("servers", () => void load(), { replay: false });

  if (!servers?.length || !sel) return null;
  const isOn = (s: PickerServer, toolId: string) => s.enabled && sel.servers.includes(s.id) && sel.tools.includes(toolId);
  const activeTools = servers.flatMap((s) => s.tools.filter((t) => isOn(s, t.id)));
  const asking = activeTools.filter((t) => t.asksFirst).length;
  const label = `Tools${activeTools.length ? ` (${activeTools.length})` : ""}`;

  return (
    <ComposerPopover
      open={open}
      onOpenChange={setOpen}
      label={label}
      triggerLabel={`${label}${asking ? `, ${asking} ask first` : ""}`}
      icon={<Wrench className="size-3" aria-hidden />}
      title="Tools for this chat"
      disabled={disabled}
      error={error}
    >
      <ul className="flex flex-col gap-2">
        {servers.map((s) => {
          const on = s.tools.some((t) => isOn(s, t.id));
          return (
            <li key={s.id} className="rounded-md border border-line p-2" data-server={s.name}>
              <label className="flex items-start gap-2">
                <input
                  type="checkbox"
                  className="mt-0.5 size-4 accent-accent"
                  checked={on}
                  disabled={!s.enabled || !s.tools.length || s.needsConnect}
                  onChange={(e) => change((current) => withServer(current, s, e.target.checked))}
                  aria-label={`Use ${s.name}`}
                />
                <span className="flex min-w-0 flex-1 flex-col gap-0.5">
                  <span className="font-medium">{s.name}</span>
                  <McpStatusBadge status={s.status} detailed />
                  {!s.tools.length && s.enabled && !s.needsConnect && <span className="text-xs text-subtle">No tools to offer yet.</span>}
                </span>
              </label>
              {s.enabled && s.needsConnect && <ConnectToUse server={s} />}
              {s.enabled && s.tools.length > 0 && (
                <ul className="mt-1 ml-6 flex flex-col gap-1">
                  {s.tools.map((t) => (
                    <li key={t.id} data-tool={t.name}>
                      <label className="flex items-start gap-2 text-xs" title={t.description ?? undefined}>
                        <input
                          type="checkbox"
                          className="accent-accent"
                          checked={isOn(s, t.id)}
                          disabled={s.needsConnect}
                          onChange={(e) => change((current) => withTool(current, s, t.id, e.target.checked))}
                          aria-label={`Use ${s.name} ${t.name}`}
                          aria-describedby={t.asksFirst ? `asks-${t.id}` : undefined}
                        />
                        <span className="min-w-0">
                          <span className="font-mono">{t.name}</span>
                          {t.asksFirst && <AsksFirst id={`asks-${t.id}`} tool={t} />}
                          {t.description && <span className="block truncate text-subtle">{t.description}</span>}
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
      {servers.some((s) => s.tools.some((t) => t.asksFirst)) && (
        <p className="mt-2 text-xs text-subtle">&ldquo;Asks first&rdquo;: each call waits for you to approve it.</p>
      )}
    </ComposerPopover>
  );
}
