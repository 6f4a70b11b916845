// The MCP client under test for the conformance suite (scripts/conformance.mjs runs it): Parley's own
// connection code (lib/mcp/connection.ts) against the suite's scenario server at argv[2]. The
// scenario name is in MCP_CONFORMANCE_SCENARIO.
import { openConnection } from "../lib/mcp/connection";
import { checkAnswer } from "../lib/mcp/elicitation-schema";
import type { Elicit } from "../lib/mcp/elicitation-routing";

const url = process.argv[2];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "initialize";

const CALLS: Record<string, { tool: string; args: Record<string, unknown> }> = {
  tools_call: { tool: "add_numbers", args: { a: 5, b: 3 } },
  "sse-retry": { tool: "test_reconnection", args: {} },
  "elicitation-sep1034-client-defaults": { tool: "test_client_elicitation_defaults", args: {} },
};

/**
 * The person behind the call, scripted: submits the form as it opens (Parley's form starts from the
 * schema's defaults; the server-side check fills omitted fields with them), declines URLs.
 */
const submitDefaults: Elicit = async (request) => {
  if (request.mode !== "form") return { action: "decline" };
  const checked = checkAnswer(request.requestedSchema, {});
  return checked.ok ? { action: "accept", content: checked.content } : { action: "cancel" };
};

async function main() {
  const conn = await openConnection({ id: "conformance", name: "conformance", transport: "http", url, connectTimeoutMs: 10_000, callTimeoutMs: 20_000 });
  console.log(`tools: ${conn.tools.map((t) => t.name).join(", ")}`);
  const call = CALLS[scenario];
  if (call && conn.tools.some((t) => t.name === call.tool)) {
    const result = await conn.callTool(call.tool, call.args, { timeoutMs: 20_000, signal: AbortSignal.timeout(20_000), elicit: submitDefaults });
    console.log(`result: ${JSON.stringify(result.content)}`);
  }
  await conn.close();
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
