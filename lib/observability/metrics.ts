// Parley's Prometheus metrics (prom-client), one registry per process on a globalThis symbol (Next
// evaluates modules once per bundle). Counted per turn, per answer, per tool error and per refusal,
// never per streamed chunk. Labels are ids and names an admin chose (model, provider, error code):
// never a secret, a member's name or message text. Gauges that are cheaper to read than to keep
// (pending approvals, MCP server health) are read when Prometheus scrapes (scrape.ts).
// Providers and MCP servers are labelled by id on every series (a rename keeps their history in one
// series); their names come once each in info series, parley_provider_info{provider,name} and
// parley_mcp_server_info{server,name} (value 1), for a query to join: `... * on(instance, provider)
// group_left(name) parley_provider_info`.
import { Counter, Gauge, Registry, collectDefaultMetrics } from "prom-client";

function build() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "parley_process_" });
  const m = {
    registry,
    turns: new Counter({
      name: "parley_turns_total",
      help: "Turns started, by outcome (started, refused, failed).",
      labelNames: ["outcome"],
      registers: [registry],
    }),
    answers: new Counter({
      name: "parley_answers_total",
      help: "Answers stored with usage, by model and provider.",
      labelNames: ["model", "provider"],
      registers: [registry],
    }),
    tokens: new Counter({
      name: "parley_tokens_total",
      help: "Tokens used, by kind (input, cached_input, output, reasoning), model and provider.",
      labelNames: ["kind", "model", "provider"],
      registers: [registry],
    }),
    cost: new Counter({
      name: "parley_cost_usd_total",
      help: "Cost of answers in US dollars at the prices of their moment, by model and provider.",
      labelNames: ["model", "provider"],
      registers: [registry],
    }),
    activeStreams: new Gauge({ name: "parley_active_streams", help: "Turns streaming in this process now.", registers: [registry] }),
    toolErrors: new Counter({
      name: "parley_tool_errors_total",
      help: "Tool calls that failed, by error code (Timeout, InvalidArgs, ToolFailed, ...).",
      labelNames: ["code"],
      registers: [registry],
    }),
    budgetRefusals: new Counter({
      name: "parley_budget_refusals_total",
      help: "Turns refused because a budget was used up, by scope and metric.",
      labelNames: ["scope", "metric"],
      registers: [registry],
    }),
    pendingApprovals: new Gauge({ name: "parley_pending_approvals", help: "Tool calls waiting for a person's approval (all teams).", registers: [registry] }),
    providerInfo: new Gauge({
      name: "parley_provider_info",
      help: "Each provider's name by its id (always 1): join on the provider label.",
      labelNames: ["provider", "name"],
      registers: [registry],
    }),
    mcpServerInfo: new Gauge({
      name: "parley_mcp_server_info",
      help: "Each MCP server's name by its id (always 1): join on the server label.",
      labelNames: ["server", "name"],
      registers: [registry],
    }),
    mcpServerUp: new Gauge({
      name: "parley_mcp_server_up",
      help: "1 when this process's session with an MCP server is connected, 0 when it failed; by server id and state.",
      labelNames: ["server", "state"],
      registers: [registry],
    }),
  };
  return m;
}

export type Metrics = ReturnType<typeof build>;

const KEY = Symbol.for("parley.metrics");
const holder = globalThis as { [KEY]?: Metrics };

export function metrics(): Metrics {
  holder[KEY] ??= build();
  return holder[KEY];
}

/** Counts one stored answer's usage. */
export function countAnswer(a: {
  model: string;
  provider: string;
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
  reasoningTokens: number;
  cost: number | null;
}) {
  const m = metrics();
  const labels = { model: a.model, provider: a.provider };
  m.answers.inc(labels);
  m.tokens.inc({ ...labels, kind: "input" }, a.inputTokens);
  m.tokens.inc({ ...labels, kind: "cached_input" }, a.cachedInputTokens);
  m.tokens.inc({ ...labels, kind: "output" }, a.outputTokens);
  m.tokens.inc({ ...labels, kind: "reasoning" }, a.reasoningTokens);
  if (a.cost) m.cost.inc(labels, a.cost);
}
