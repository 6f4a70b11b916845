// An admin's form of an MCP server (server-schema.ts) as the columns of its row. Headers, token and
// environment are write-only secrets under the rules of lib/security/stored-secrets.ts: a new value
// replaces, "clear" removes, empty keeps what is stored, and only for the same origin (a URL on
// another server needs them entered again). Unchanged secrets keep their ciphertext.
import type { McpServer, Prisma } from "../db/generated/client";
import { readJsonSecret, sealJsonSecret, secretMoved, STDIO_TARGET, writeOnly } from "../security/stored-secrets";
import { parseArgLines, parseEnvLines, parseHeaderLines, type McpServerFormInput } from "./server-schema";
import type { HeaderSecrets } from "./servers";

/** The row's columns for `input`; `existing` when editing, whose secrets are kept unless replaced. */
export function serverColumns(input: McpServerFormInput, existing?: McpServer): Prisma.McpServerUncheckedUpdateInput {
  const stdio = input.transport === "stdio";
  const out: Prisma.McpServerUncheckedUpdateInput = {
    name: input.name,
    transport: input.transport,
    url: stdio ? null : input.url,
    command: stdio ? input.command : null,
    args: stdio ? parseArgLines(input.args) : [],
    enabled: input.enabled,
    connectTimeoutMs: Math.round(input.connectTimeoutSec * 1000),
    callTimeoutMs: Math.round(input.callTimeoutSec * 1000),
    authMode: stdio ? "shared" : input.authMode,
    memberHeader: input.memberHeader || null,
    oauthScopes: input.oauthScopes || null,
  };
  // The OAuth client: a new id replaces (with its secret), "clear" or another origin removes it
  // (a client registered at one authorization server is of no use at another), empty keeps it.
  if (stdio || input.clearSecrets || secretMoved(existing?.oauthClientEnc, existing?.url, input.url)) out.oauthClientEnc = null;
  if (!stdio && input.oauthClientId) {
    out.oauthClientEnc = sealJsonSecret(
      { client_id: input.oauthClientId, ...(input.oauthClientSecret ? { client_secret: input.oauthClientSecret } : {}) },
      input.url,
    );
  }
  // Write-only secrets: a new value replaces, "clear" removes, empty keeps what is stored (for the
  // same origin only: a URL on another server needs them entered again).
  const entered = Boolean(input.headers || input.bearerToken || input.env.trim());
  const reseal = !existing || input.clearSecrets || entered;
  if (stdio) {
    out.headersEnc = null;
    const stored = existing?.envEnc ?? undefined;
    const kept = writeOnly("env", input.env.trim() ? sealJsonSecret(parseEnvLines(input.env).env, STDIO_TARGET) : undefined, {
      clear: input.clearSecrets,
      stored,
      moved: secretMoved(stored, existing?.transport === "stdio" ? STDIO_TARGET : existing?.url, STDIO_TARGET),
    });
    out.envEnc = kept ?? null;
  } else {
    out.envEnc = null;
    const stored = readJsonSecret<HeaderSecrets>(existing?.headersEnc) ?? {};
    const moved = secretMoved(existing?.headersEnc, existing?.url, input.url);
    const next: HeaderSecrets = {
      headers: writeOnly("headers", input.headers ? parseHeaderLines(input.headers).headers : undefined, {
        clear: input.clearSecrets,
        stored: stored.headers,
        moved,
      }),
      bearerToken: writeOnly("bearerToken", input.bearerToken || undefined, { clear: input.clearSecrets, stored: stored.bearerToken, moved }),
    };
    const any = Boolean(next.bearerToken || Object.keys(next.headers ?? {}).length);
    // Unchanged secrets keep their ciphertext, so the audit log does not report a change.
    out.headersEnc = !any ? null : reseal ? sealJsonSecret(next, input.url) : existing!.headersEnc;
  }
  return out;
}
