// The MCP client under test for the conformance suite (scripts/conformance.mjs runs it): Parley's own
// connection code (lib/mcp/connection.ts) against the suite's scenario server at argv[2], and for the
// auth/* scenarios Parley's own OAuth code (lib/mcp/oauth-provider.ts, oauth-flow.ts, on the SDK's
// client auth) doing what a member's "Connect" does: begin the flow, follow the authorization URL
// (headlessly: the scenario's authorization server redirects at once with a code, where a member
// would log in), complete it at the "callback", then connect with the tokens in the background mode
// tool calls use. A step-up (403 insufficient_scope) is what a member meets as the Connect notice:
// here it connects again with the larger scope, at most MAX_CONNECTS times. The scenario name is in
// MCP_CONFORMANCE_SCENARIO, its extra data (a pre-registered client) in MCP_CONFORMANCE_CONTEXT.
import type { McpServerConfig } from "../lib/mcp/config";
import { openConnection, type McpConnection } from "../lib/mcp/connection";
import { McpFailure } from "../lib/mcp/failures";
import { checkAnswer } from "../lib/mcp/elicitation-schema";
import type { Elicit } from "../lib/mcp/elicitation-routing";
import { beginAuthorization, completeAuthorization } from "../lib/mcp/oauth-flow";
import { ConnectRequired, memoryStore, StoredOAuthProvider, type OAuthClientSettings } from "../lib/mcp/oauth-provider";

const url = process.argv[2];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "initialize";
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}") as { client_id?: string; client_secret?: string };
const MAX_CONNECTS = 3;

const CALLS: Record<string, { tool: string; args: Record<string, unknown> }> = {
  tools_call: { tool: "add_numbers", args: { a: 5, b: 3 } },
  "sse-retry": { tool: "test_reconnection", args: {} },
  "elicitation-sep1034-client-defaults": { tool: "test_client_elicitation_defaults", args: {} },
};

const base: McpServerConfig = { id: "conformance", name: "conformance", transport: "http", url, connectTimeoutMs: 10_000, callTimeoutMs: 20_000 };

/**
 * The person behind the call, scripted: submits the form as it opens (Parley's form starts from the
 * schema's defaults; the server-side check fills omitted fields with them), declines URLs.
 */
const submitDefaults: Elicit = async (request) => {
  if (request.mode !== "form") return { action: "decline" };
  const checked = checkAnswer(request.requestedSchema, {});
  return checked.ok ? { action: "accept", content: checked.content } : { action: "cancel" };
};

async function plain() {
  const conn = await openConnection(base);
  console.log(`tools: ${conn.tools.map((t) => t.name).join(", ")}`);
  const call = CALLS[scenario];
  if (call && conn.tools.some((t) => t.name === call.tool)) {
    const result = await conn.callTool(call.tool, call.args, { timeoutMs: 20_000, signal: AbortSignal.timeout(20_000), elicit: submitDefaults });
    console.log(`result: ${JSON.stringify(result.content)}`);
  }
  await conn.close();
}

/** Follows the authorization URL as the member's browser would, and returns the callback's parameters. */
async function followAuthorization(authorizationUrl: URL) {
  const res = await fetch(authorizationUrl, { redirect: "manual" });
  const location = res.headers.get("location");
  if (!location) throw new Error(`The authorization server did not redirect (HTTP ${res.status}).`);
  const back = new URL(location, authorizationUrl);
  return { code: back.searchParams.get("code"), iss: back.searchParams.get("iss"), error: back.searchParams.get("error"), errorDescription: back.searchParams.get("error_description") };
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
    preRegistered: context.client_id ? { client_id: context.client_id, client_secret: context.client_secret } : undefined,
  };
  const target = { serverUrl: url };
  let scope: string | undefined;
  let conn: McpConnection | undefined;
  for (let connects = 0; ; ) {
    try {
      conn ??= await openConnection({ ...base, authProvider: new StoredOAuthProvider(store, settings, "background", target) });
      console.log(`tools: ${conn.tools.map((t) => t.name).join(", ")}`);
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
      if (err instanceof McpFailure) {
        await conn?.close();
        conn = undefined;
      }
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
