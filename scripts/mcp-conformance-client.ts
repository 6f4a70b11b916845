// The MCP client under test for the conformance suite (scripts/conformance.mjs runs it once per
// scenario and revision): Parley's own connection code (lib/mcp/connection.ts: the revision is
// discovered, 2026-07-28, or the 2025 handshake) against the suite's scenario server at argv[2], and
// for the auth/* scenarios Parley's own OAuth code (lib/mcp/oauth-provider.ts, oauth-flow.ts, on the
// SDK's client auth) doing what a member's "Connect" does: begin the flow, follow the authorization
// URL (headlessly: the scenario's authorization server redirects at once with a code and `iss`,
// where a member would log in), complete it at the "callback" (the SDK checks `iss`), then connect
// with the tokens in the background mode tool calls use. A step-up (403 insufficient_scope) or a
// refused token is what a member meets as the Connect notice: here it connects again, at most
// MAX_CONNECTS times. Each scenario's driver does what a person or model would: list, call, read, get.
// The scenario name is in MCP_CONFORMANCE_SCENARIO, its extra data in MCP_CONFORMANCE_CONTEXT.
import type { McpServerConfig } from "../lib/mcp/config";
import { openConnection, type McpConnection } from "../lib/mcp/connection";
import { McpFailure } from "../lib/mcp/failures";
import { checkAnswer, formOf } from "../lib/mcp/elicitation-schema";
import type { Elicit } from "../lib/mcp/elicitation-routing";
import { beginAuthorization, completeAuthorization } from "../lib/mcp/oauth-flow";
import { ConnectRequired, memoryStore, StoredOAuthProvider, type OAuthClientSettings } from "../lib/mcp/oauth-provider";

const url = process.argv[2];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "initialize";
type Context = { client_id?: string; client_secret?: string; toolCalls?: { name: string; arguments: Record<string, unknown> }[] };
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}") as Context;
const MAX_CONNECTS = 3;
const base: McpServerConfig = { id: "conformance", name: "conformance", transport: "http", url, connectTimeoutMs: 10_000, callTimeoutMs: 20_000 };

/**
 * The person behind the call, scripted: submits the form as it opens (Parley's form starts from the
 * schema's defaults; the server-side check fills omitted fields with them), filling a required field
 * without a default as a person would (a yes, a word, a number), and declines URLs.
 */
const person: Elicit = async (request) => {
  if (request.mode !== "form") return { action: "decline" };
  const typed: Record<string, string | number | boolean> = {};
  for (const f of formOf(request.requestedSchema).fields) {
    if (!f.required || f.default !== undefined) continue;
    if (f.kind === "boolean") typed[f.key] = true;
    else if (f.kind === "number" || f.kind === "integer") typed[f.key] = f.minimum ?? 1;
    else if (f.kind === "enum") typed[f.key] = f.options[0]?.value ?? "";
    else if (f.kind === "string") typed[f.key] = "x".repeat(Math.max(1, f.minLength ?? 1));
  }
  const checked = checkAnswer(request.requestedSchema, typed);
  return checked.ok ? { action: "accept", content: checked.content } : { action: "cancel" };
};

const call = (conn: McpConnection, name: string, args: Record<string, unknown> = {}) =>
  conn.callTool(name, args, { timeoutMs: 20_000, signal: AbortSignal.timeout(20_000), elicit: person });
const signal = () => AbortSignal.timeout(20_000);
/** A call the scenario expects to fail on the client's side: the failure is the point. */
const expectFailure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (err: Error) => console.log(`refused as expected: ${err.message}`),
  );

/** What each scenario's driver does with an open connection (default: list the tools). */
const DRIVERS: Record<string, (conn: McpConnection) => Promise<void>> = {
  tools_call: async (conn) => void (await call(conn, "add_numbers", { a: 5, b: 3 })),
  "sse-retry": async (conn) => void (await call(conn, "test_reconnection")),
  "elicitation-sep1034-client-defaults": async (conn) => void (await call(conn, "test_client_elicitation_defaults")),
  "sep-2322-client-request-state": async (conn) => {
    for (const name of ["test_mrtr_echo_state", "test_mrtr_no_state", "test_mrtr_unrelated"]) await call(conn, name);
    // A 2026-07-28 result without its resultType is a protocol error: refused here, never retried.
    await expectFailure(call(conn, "test_mrtr_no_result_type"));
  },
  "http-standard-headers": async (conn) => {
    const tool = conn.tools[0];
    if (tool) await call(conn, tool.name);
    const { resources } = await conn.catalog.listResources(signal());
    if (resources[0]) await conn.catalog.readResource(resources[0].uri, signal());
    const prompts = await conn.catalog.listPrompts(signal());
    if (prompts[0]) await conn.catalog.getPrompt(prompts[0].name, {}, signal());
  },
  "http-custom-headers": async (conn) => {
    for (const c of context.toolCalls ?? []) await call(conn, c.name, c.arguments);
  },
  // The SDK leaves tools whose header annotations break the rules out of the list: only valid ones are called.
  "http-invalid-tool-headers": async (conn) => {
    for (const t of conn.tools) await expectFailure(call(conn, t.name, { region: "us-west1" }).then(() => console.log(`called ${t.name}`)));
  },
  "json-schema-2020-12-preservation": async (conn) => {
    const focal = conn.tools.find((t) => t.name === "json_schema_2020_12_tool");
    if (!focal) throw new Error("The server does not list json_schema_2020_12_tool.");
    await call(conn, "json_schema_echo", { schema: focal.inputSchema });
  },
};

async function plain() {
  const conn = await openConnection(base);
  console.log(`MCP ${conn.protocolVersion}; tools: ${conn.tools.map((t) => t.name).join(", ")}`);
  try {
    await DRIVERS[scenario]?.(conn);
  } finally {
    await conn.close();
  }
}

/** Follows the authorization URL as the member's browser would, and returns the callback's parameters. */
async function followAuthorization(authorizationUrl: URL) {
  const res = await fetch(authorizationUrl, { redirect: "manual" });
  const location = res.headers.get("location");
  if (!location) throw new Error(`The authorization server did not redirect (HTTP ${res.status}).`);
  const back = new URL(location, authorizationUrl);
  return {
    code: back.searchParams.get("code"),
    iss: back.searchParams.get("iss"),
    error: back.searchParams.get("error"),
    errorDescription: back.searchParams.get("error_description"),
  };
}

function isConnectRequired(err: unknown): err is McpFailure | ConnectRequired {
  return err instanceof ConnectRequired || (err instanceof McpFailure && err.kind === "auth");
}

async function withOAuth() {
  const store = memoryStore();
  const settings: OAuthClientSettings = {
    redirectUrl: "http://localhost:3000/api/mcp/oauth/callback",
    // Parley's is <its https URL>/api/mcp/oauth/client-metadata.json; the suite's scenario expects this one.
    clientMetadataUrl: "https://conformance-test.local/client-metadata.json",
    clientName: "Parley (conformance)",
    preRegistered: context.client_id ? [{ client_id: context.client_id, client_secret: context.client_secret }] : undefined,
  };
  const target = { serverUrl: url };
  let scope: string | undefined;
  let conn: McpConnection | undefined;
  for (let connects = 0; ;) {
    try {
      conn ??= await openConnection({ ...base, authProvider: new StoredOAuthProvider(store, settings, "background", target) });
      console.log(`MCP ${conn.protocolVersion}; tools: ${conn.tools.map((t) => t.name).join(", ")}`);
      const tool = conn.tools[0];
      if (tool) console.log(`result: ${JSON.stringify((await conn.callTool(tool.name, {}, { timeoutMs: 20_000 })).content)}`);
      await conn.close();
      return;
    } catch (err) {
      if (!isConnectRequired(err) || connects >= MAX_CONNECTS) throw err;
      connects++;
      // The Connect notice: the member signs in (again), with the scope the server asked for.
      scope = err.scope ?? store.record.scope ?? scope;
      const { authorizationUrl } = await beginAuthorization(store, settings, target, scope);
      await completeAuthorization(store, settings, target, await followAuthorization(authorizationUrl));
      await conn?.close();
      conn = undefined;
    }
  }
}

const main = scenario.startsWith("auth/") ? withOAuth : plain;

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
