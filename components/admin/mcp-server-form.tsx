"use client";
// Add or edit an MCP server: name, transport (Streamable HTTP, SSE, stdio when the operator allows
// it), URL with headers or a bearer token, or command, arguments and environment; timeouts; enabled.
// Secrets are write-only: the form shows what is stored as names and masks, never the values.
import { useState } from "react";
import type { ActionState } from "@/lib/actions";
import { ActionForm, type FormAction } from "@/components/ui/action-form";
import { CheckboxField, Field, FormField, TextareaField } from "../ui/field";
import { OptionSelect } from "../ui/select";
import { SubmitButton } from "../ui/submit-button";

export type McpServerFormValues = {
  serverId?: string;
  name: string;
  transport: "http" | "sse" | "stdio";
  url: string;
  command: string;
  args: string[];
  connectTimeoutSec: number;
  callTimeoutSec: number;
  enabled: boolean;
  secrets?: { headerNames: string[]; bearerHint?: string; envNames: string[]; unreadable?: boolean };
  authMode?: "shared" | "oauth" | "member_key";
  memberHeader?: string;
  oauthScopes?: string;
  oauthClientId?: string;
};

function TextArea(props: { id: string; label: string; name: string; error?: string; hint?: string; defaultValue?: string; placeholder?: string }) {
  return <TextareaField {...props} rows={3} className="[&_textarea]:font-mono" autoComplete="off" spellCheck={false} />;
}

type Mode = NonNullable<McpServerFormValues["authMode"]>;

/** How members authenticate: shared (the headers and token above), OAuth per member, a key per member. */
function MemberAuthFields({
  mode,
  setMode,
  initial,
  v,
  f,
}: {
  mode: Mode;
  setMode: (m: Mode) => void;
  initial?: McpServerFormValues;
  v: (k: string, fallback: string) => string;
  f: Record<string, string>;
}) {
  return (
    <>
      <FormField
        label="Members authenticate"
        error={f.authMode}
        hint="Shared: everyone's calls use the headers and token above. Otherwise each member connects their own account (Settings → Connections) and their calls use it."
      >
        {(control) => (
          <OptionSelect
            {...control}
            name="authMode"
            value={mode}
            onValueChange={(m) => setMode(m as Mode)}
            options={[
              { value: "shared", label: "Shared (one token for everyone)" },
              { value: "oauth", label: "OAuth: each member connects their own account" },
              { value: "member_key", label: "A key per member (each pastes their own)" },
            ]}
          />
        )}
      </FormField>
      {mode === "oauth" && (
        <>
          <Field
            label="OAuth client ID (optional)"
            name="oauthClientId"
            autoComplete="off"
            error={f.oauthClientId}
            hint={
              initial?.oauthClientId
                ? `In use: ${initial.oauthClientId}. Enter another to replace it.`
                : "Only for a client registered at the authorization server beforehand; otherwise Parley introduces itself (client ID metadata document) or registers."
            }
          />
          <Field
            label="OAuth client secret (optional)"
            name="oauthClientSecret"
            type="password"
            autoComplete="off"
            error={f.oauthClientSecret}
            hint="Write-only; goes with the client ID above."
          />
          <Field
            label="Scopes (optional)"
            name="oauthScopes"
            defaultValue={v("oauthScopes", initial?.oauthScopes ?? "")}
            error={f.oauthScopes}
            hint="Asked for when the server names none."
          />
        </>
      )}
      {mode === "member_key" && (
        <Field
          label="Header for the member's key"
          name="memberHeader"
          defaultValue={v("memberHeader", initial?.memberHeader ?? "")}
          error={f.memberHeader}
          placeholder="Authorization"
          hint="Authorization sends Bearer <key>; any other header sends the key as it is."
        />
      )}
    </>
  );
}

export function McpServerForm({
  action,
  initial,
  stdioAllowed,
  submitLabel,
}: {
  action: FormAction;
  initial?: McpServerFormValues;
  stdioAllowed: boolean;
  submitLabel: string;
}) {
  const [transport, setTransport] = useState(initial?.transport ?? "http");
  const [authMode, setAuthMode] = useState(initial?.authMode ?? "shared");
  const s = initial?.secrets;
  const storedHeaders = s ? [...s.headerNames.map((n) => `${n}: ••••`), ...(s.bearerHint ? [`Bearer token ${s.bearerHint}`] : [])].join(", ") : "";
  return (
    <ActionForm action={action} label={initial?.serverId ? "Edit MCP server" : "New MCP server"} showSuccess>
      {(state: ActionState) => {
        const v = (k: string, fallback: string) => state.values?.[k] ?? fallback;
        const f = state.fields ?? {};
        return (
          <>
            {initial?.serverId && <input type="hidden" name="serverId" value={initial.serverId} />}
            <Field
              label="Name"
              name="name"
              required
              maxLength={60}
              defaultValue={v("name", initial?.name ?? "")}
              error={f.name}
              hint="Tools are offered to the model as <name>__<tool>."
            />
            <FormField
              label="Transport"
              error={f.transport}
              hint={stdioAllowed ? "stdio is allowed on this instance." : "stdio needs PARLEY_ALLOW_STDIO_MCP=1 on the server."}
            >
              {(control) => (
                <OptionSelect
                  {...control}
                  name="transport"
                  value={transport}
                  onValueChange={(t) => setTransport(t as typeof transport)}
                  options={[
                    { value: "http", label: "Streamable HTTP" },
                    { value: "sse", label: "SSE (older servers)" },
                    { value: "stdio", label: `stdio (runs a command on this server)${stdioAllowed ? "" : " — turned off"}` },
                  ]}
                />
              )}
            </FormField>
            {transport === "stdio" ? (
              <>
                <Field label="Command" name="command" defaultValue={v("command", initial?.command ?? "")} error={f.command} placeholder="npx" />
                <TextArea id="mcp-args" label="Arguments (one per line)" name="args" defaultValue={v("args", initial?.args.join("\n") ?? "")} error={f.args} />
                <TextArea
                  id="mcp-env"
                  label="Environment (NAME=value per line)"
                  name="env"
                  error={f.env}
                  hint={
                    s?.envNames.length
                      ? `Stored: ${s.envNames.join(", ")} (values hidden). Leave empty to keep them.`
                      : "Write-only: values are encrypted and never shown again."
                  }
                />
              </>
            ) : (
              <>
                <Field label="URL" name="url" type="url" defaultValue={v("url", initial?.url ?? "")} error={f.url} placeholder="https://mcp.example.com/mcp" />
                <TextArea
                  id="mcp-headers"
                  label="Headers (Name: value per line)"
                  name="headers"
                  error={f.headers}
                  hint={
                    storedHeaders
                      ? `Stored: ${storedHeaders}. Leave empty to keep; a URL on another server needs them again.`
                      : "Write-only: values are encrypted and never shown again."
                  }
                />
                <Field
                  label="Bearer token"
                  name="bearerToken"
                  type="password"
                  autoComplete="off"
                  error={f.bearerToken}
                  hint={
                    s?.bearerHint
                      ? `Stored: ${s.bearerHint}. Leave empty to keep it; a URL on another server needs it again.`
                      : "Sent as Authorization: Bearer <token>. Write-only."
                  }
                />
                <MemberAuthFields mode={authMode} setMode={setAuthMode} initial={initial} v={v} f={f} />
              </>
            )}
            {initial?.serverId && (s?.headerNames.length || s?.bearerHint || s?.envNames.length) ? (
              <CheckboxField name="clearSecrets" label="Remove the stored headers, token and environment" />
            ) : null}
            {s?.unreadable && <p className="text-sm text-danger">The stored secrets cannot be decrypted with this instance&apos;s key. Enter them again.</p>}
            <div className="grid grid-cols-2 gap-3">
              <Field
                label="Connect timeout (s)"
                name="connectTimeoutSec"
                type="number"
                min={1}
                max={120}
                defaultValue={v("connectTimeoutSec", String(initial?.connectTimeoutSec ?? 10))}
                error={f.connectTimeoutSec}
              />
              <Field
                label="Call timeout (s)"
                name="callTimeoutSec"
                type="number"
                min={1}
                max={3600}
                defaultValue={v("callTimeoutSec", String(initial?.callTimeoutSec ?? 60))}
                error={f.callTimeoutSec}
              />
            </div>
            <CheckboxField name="enabled" label="Enabled" defaultChecked={state.values ? state.values.enabled === "on" : (initial?.enabled ?? true)} />
            <SubmitButton pendingText="Saving…" className="self-start">
              {submitLabel}
            </SubmitButton>
          </>
        );
      }}
    </ActionForm>
  );
}
