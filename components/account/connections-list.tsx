"use client";
// A member's connections to MCP servers (Settings → Connections): per server its state; OAuth
// servers get Connect (a link that starts the sign-in) and Disconnect; key servers a write-only
// field for the member's own key (shown masked once stored) and Disconnect.
import type { ConnectionView } from "@/lib/identity/mcp-credentials";
import { ActionForm, type FormAction } from "../ui/action-form";
import { Button } from "../ui/button";
import { Field } from "../ui/field";
import { SubmitButton } from "../ui/submit-button";

const STATE: Record<ConnectionView["state"], string> = { connected: "Connected", reconnect: "Expired or revoked: connect again", none: "Not connected" };

function DisconnectForm({ c, action }: { c: ConnectionView; action: FormAction }) {
  return (
    <ActionForm action={action} className="flex flex-col gap-1" label={`Disconnect ${c.serverName}`}>
      {() => (
        <>
          <input type="hidden" name="serverId" value={c.serverId} />
          <SubmitButton variant="secondary" size="sm" pendingText="Disconnecting…" aria-label={`Disconnect ${c.serverName}`}>
            Disconnect
          </SubmitButton>
        </>
      )}
    </ActionForm>
  );
}

export function ConnectionsList({ connections, disconnect, saveKey }: { connections: ConnectionView[]; disconnect: FormAction; saveKey: FormAction }) {
  if (!connections.length) {
    return <p className="text-sm text-subtle">No tool server of this team asks for your own account. Servers an admin shares work without connecting.</p>;
  }
  return (
    <ul className="flex flex-col divide-y divide-line rounded-lg border border-line">
      {connections.map((c) => (
        <li key={c.serverId} className="flex flex-col gap-2 px-3 py-3 text-sm" data-connection={c.serverName}>
          <div className="flex flex-wrap items-center justify-between gap-2">
            <span className="flex flex-col">
              <span className="font-medium">{c.serverName}</span>
              <span className="text-subtle">
                {STATE[c.state]}
                {c.keyHint ? ` · key ${c.keyHint}` : ""}
                {c.state === "connected" && c.scope ? ` · scope ${c.scope}` : ""}
              </span>
            </span>
            <span className="flex items-center gap-2">
              {c.mode === "oauth" && c.state !== "connected" && (
                <Button asChild size="sm">
                  <a href={`/api/mcp/connections/${c.serverId}/connect?returnTo=/settings/connections`} aria-label={`Connect ${c.serverName}`}>
                    Connect
                  </a>
                </Button>
              )}
              {c.state !== "none" && <DisconnectForm c={c} action={disconnect} />}
            </span>
          </div>
          {c.mode === "member_key" && (
            <ActionForm action={saveKey} className="flex flex-col gap-2" label={`Your key for ${c.serverName}`} showSuccess>
              {(state) => (
                <>
                  <input type="hidden" name="serverId" value={c.serverId} />
                  <Field
                    label={`Your key for ${c.serverName}`}
                    name="key"
                    type="password"
                    autoComplete="off"
                    error={state.fields?.key}
                    hint={c.keyHint ? `Stored: ${c.keyHint}. Paste a new one to replace it.` : "Write-only: stored encrypted, never shown again."}
                  />
                  <SubmitButton size="sm" pendingText="Saving…" className="self-start">
                    Save key
                  </SubmitButton>
                </>
              )}
            </ActionForm>
          )}
        </li>
      ))}
    </ul>
  );
}
