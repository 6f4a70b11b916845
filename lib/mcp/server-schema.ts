// The admin form of an MCP server, one zod schema shared by the server action and the form (which
// shows the field errors it returns). Secrets (headers, bearer token, stdio environment) are
// write-only: empty means "keep what is stored" when editing.
import { z } from "zod";
import { config } from "../config";
import { judgeUrl } from "../security/address-policy";
import { parseHeaderLines as parseHeaderLinesWith } from "../validation";
import { DEFAULT_CALL_TIMEOUT_MS, DEFAULT_CONNECT_TIMEOUT_MS, stdioAllowed } from "./config";

const checkbox = z.preprocess((v) => v === true || v === "on" || v === "true", z.boolean());
const text = (max: number) => z.preprocess((v) => (typeof v === "string" ? v.trim() : ""), z.string().max(max, `At most ${max} characters.`));
const seconds = (label: string, min: number, max: number, fallback: number) =>
  z.preprocess(
    (v) => (v === undefined || v === null || v === "" ? fallback : Number(v)),
    z.number({ error: `Enter the ${label} in seconds.` }).refine((n) => Number.isFinite(n) && n >= min && n <= max, `Between ${min} and ${max} seconds.`),
  );

/** Headers the MCP transport sets itself, on top of the usual ones. */
const MCP_RESERVED_HEADERS = ["accept", "mcp-session-id", "mcp-protocol-version", "last-event-id"];
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** "Name: value" per line -> headers; a message for the first bad line. */
export function parseHeaderLines(input: string): { headers?: Record<string, string>; error?: string } {
  return parseHeaderLinesWith(input, MCP_RESERVED_HEADERS);
}

/** "NAME=value" per line -> environment variables; a message for the first bad line. */
export function parseEnvLines(input: string): { env?: Record<string, string>; error?: string } {
  const env: Record<string, string> = {};
  const lines = input.split(/\r?\n/).filter((l) => l.trim());
  if (lines.length > 50) return { error: "At most 50 variables." };
  for (const [i, line] of lines.entries()) {
    const at = line.indexOf("=");
    const name = at > 0 ? line.slice(0, at).trim() : "";
    if (!ENV_NAME.test(name)) return { error: `Line ${i + 1}: write one variable per line as NAME=value.` };
    env[name] = line.slice(at + 1);
  }
  return { env };
}

function validUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return (u.protocol === "http:" || u.protocol === "https:") && !u.username && !u.password;
  } catch {
    return false;
  }
}

export const mcpServerFormSchema = z
  .object({
    name: z.string({ error: "Enter a name." }).trim().min(1, "Enter a name.").max(60, "At most 60 characters."),
    transport: z.enum(["http", "sse", "stdio"], { error: "Choose a transport." }),
    url: text(2000),
    headers: text(20_000),
    bearerToken: text(4000),
    clearSecrets: checkbox,
    command: text(500),
    args: z.preprocess((v) => (typeof v === "string" ? v : ""), z.string().max(10_000, "Too long.")),
    env: z.preprocess((v) => (typeof v === "string" ? v : ""), z.string().max(20_000, "Too long.")),
    connectTimeoutSec: seconds("connect timeout", 1, 120, DEFAULT_CONNECT_TIMEOUT_MS / 1000),
    callTimeoutSec: seconds("call timeout", 1, 3600, DEFAULT_CALL_TIMEOUT_MS / 1000),
    enabled: checkbox,
    authMode: z.preprocess(
      (v) => (v === undefined || v === "" ? "shared" : v),
      z.enum(["shared", "oauth", "member_key"], { error: "Choose how members sign in." }),
    ),
    memberHeader: text(100),
    oauthClientId: text(2000),
    oauthClientSecret: text(4000),
    oauthScopes: text(1000),
  })
  .superRefine((v, ctx) => {
    if (v.transport === "stdio") {
      if (v.authMode !== "shared")
        ctx.addIssue({
          code: "custom",
          path: ["authMode"],
          message: "A stdio server runs here with its environment: members cannot bring their own account to it.",
        });
      if (!stdioAllowed()) {
        ctx.addIssue({
          code: "custom",
          path: ["transport"],
          message: "stdio servers are turned off on this instance (the operator sets PARLEY_ALLOW_STDIO_MCP=1 to allow them).",
        });
      }
      if (!v.command) ctx.addIssue({ code: "custom", path: ["command"], message: "Enter the command to run." });
      if (v.env) {
        const { error } = parseEnvLines(v.env);
        if (error) ctx.addIssue({ code: "custom", path: ["env"], message: error });
      }
    } else {
      if (!validUrl(v.url))
        ctx.addIssue({ code: "custom", path: ["url"], message: "Enter a valid http:// or https:// URL (without a user name or password in it)." });
      else {
        const target = judgeUrl(v.url, config().PARLEY_ALLOW_PRIVATE_URLS);
        if (!target.ok) ctx.addIssue({ code: "custom", path: ["url"], message: target.reason });
      }
      if (v.headers) {
        const { error } = parseHeaderLines(v.headers);
        if (error) ctx.addIssue({ code: "custom", path: ["headers"], message: error });
      }
      if (/[\r\n\0]/.test(v.bearerToken)) ctx.addIssue({ code: "custom", path: ["bearerToken"], message: "The token cannot contain line breaks." });
      if (v.memberHeader && (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(v.memberHeader) || MCP_RESERVED_HEADERS.includes(v.memberHeader.toLowerCase()))) {
        ctx.addIssue({ code: "custom", path: ["memberHeader"], message: "Enter a header name such as Authorization or X-Api-Key." });
      }
      for (const k of ["oauthClientId", "oauthClientSecret", "oauthScopes"] as const) {
        if (/[\r\n\0]/.test(v[k])) ctx.addIssue({ code: "custom", path: [k], message: "Cannot contain line breaks." });
      }
    }
  });

export type McpServerFormInput = z.infer<typeof mcpServerFormSchema>;

/** One argument per line (so arguments may contain spaces). */
export function parseArgLines(input: string): string[] {
  return input
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
}
