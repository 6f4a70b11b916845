// What the client pool needs to reach one MCP server, decrypted in memory only, and the rules the
// operator sets for this instance (stdio servers run commands here, so they are off unless allowed).
import crypto from "node:crypto";
import type { OAuthClientProvider } from "@modelcontextprotocol/client";
import { config } from "../config";

type McpTransportKind = "http" | "sse" | "stdio";

export type McpServerConfig = {
  id: string;
  name: string;
  transport: McpTransportKind;
  url?: string | null;
  headers?: Record<string, string>;
  command?: string | null;
  args?: string[];
  env?: Record<string, string>;
  connectTimeoutMs: number;
  callTimeoutMs: number;
  /** OAuth for one member (lib/identity builds it): the SDK's transport asks it for tokens. */
  authProvider?: OAuthClientProvider;
  /** The pool keeps one session per key: the server id when shared, server and member otherwise. */
  poolKey?: string;
};

export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
export const DEFAULT_CALL_TIMEOUT_MS = 60_000;

export function stdioAllowed(): boolean {
  return config().PARLEY_ALLOW_STDIO_MCP;
}

/** Changes to anything here mean a new connection; the call timeout and the name do not. */
export function fingerprint(c: McpServerConfig): string {
  const relevant = [c.transport, c.url ?? "", c.headers ?? {}, c.command ?? "", c.args ?? [], c.env ?? {}, c.connectTimeoutMs];
  return crypto.createHash("sha256").update(JSON.stringify(relevant)).digest("hex");
}
