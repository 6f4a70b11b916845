// /api/metrics scraped by a real Prometheus (Debian's `prometheus`; .ci/run installs it): after a
// priced turn, a budget refusal and a failed tool call, Prometheus reads the turns, tokens, cost,
// refusals and tool errors; a scrape without the token is refused (the target is down with a 401);
// with METRICS_TOKEN unset the endpoint is off; the text holds no message text or key.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import type { LLMock } from "@copilotkit/aimock";
import { afterAll, describe, expect, it } from "vitest";
import { db } from "../db/client";
import { errorResponse } from "../http";
import { rejection } from "@/test/support/test-app";
import { readChunks, teamWithProvider } from "@/test/support/test-turns";
import { runTurn, storedTurn, turnHarness } from "@/test/support/turn-harness";
import { scrapeMetrics } from "./scrape";
import { metrics } from "./metrics";

const PROMETHEUS = "/usr/bin/prometheus";
// Prometheus cannot listen on port 0 and tell which port it took: the port comes from the environment.
const PROM_PORT = Number(process.env.PARLEY_TEST_PROMETHEUS_PORT || 19390);
const TOKEN = "metrics-token-for-the-test-0123";

let mock: LLMock;
turnHarness((m) => (mock = m));

let app: http.Server | undefined;
let prometheus: ChildProcess | undefined;
let dir: string | undefined;
afterAll(async () => {
  prometheus?.kill("SIGTERM");
  app?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  delete process.env.METRICS_TOKEN;
});

/** Serves /api/metrics as the route does (app/api/metrics/route.ts is this, in Next). */
async function serveMetrics(): Promise<number> {
  app = http.createServer(async (req, res) => {
    let response: Response;
    try {
      const { body, contentType } = await scrapeMetrics(req.headers.authorization ?? null);
      response = new Response(body, { headers: { "content-type": contentType } });
    } catch (err) {
      response = errorResponse(err);
    }
    res.writeHead(response.status, Object.fromEntries(response.headers)).end(await response.text());
  });
  await new Promise<void>((r) => app!.listen(0, "127.0.0.1", r));
  return (app.address() as AddressInfo).port;
}

async function query(q: string): Promise<{ metric: Record<string, string>; value: [number, string] }[]> {
  const res = await fetch(`http://127.0.0.1:${PROM_PORT}/api/v1/query?query=${encodeURIComponent(q)}`);
  return ((await res.json()) as { data: { result: { metric: Record<string, string>; value: [number, string] }[] } }).data.result;
}

/** Polls Prometheus (it scrapes every second) until `ready` holds for the answer. */
async function eventually<T>(read: () => Promise<T>, ready: (v: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const v = await read().catch(() => undefined as T);
    if (v !== undefined && ready(v)) return v;
    if (Date.now() > deadline) throw new Error(`Prometheus never showed ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe("the metrics endpoint", () => {
  it("is off without METRICS_TOKEN and refuses a wrong token", async () => {
    delete process.env.METRICS_TOKEN;
    expect((await rejection(scrapeMetrics(`Bearer ${TOKEN}`))).status).toBe(404);
    process.env.METRICS_TOKEN = TOKEN;
    expect((await rejection(scrapeMetrics("Bearer wrong"))).status).toBe(401);
    expect((await rejection(scrapeMetrics(null))).status).toBe(401);
  });

  it("names providers and MCP servers once, in info series (id and name), so counters keep ids and a query joins the names", async () => {
    process.env.METRICS_TOKEN = TOKEN;
    const { ctx, provider } = await teamWithProvider(mock.url, "openai_chat", "gpt-info");
    const prisma = await db();
    const server = await prisma.mcpServer.create({ data: { teamId: ctx.team.id, name: 'Wiki "search"', transport: "http", url: "http://127.0.0.1:9/mcp" } });
    const text = (await scrapeMetrics(`Bearer ${TOKEN}`)).body;
    expect(text).toContain(`parley_provider_info{provider="${provider.id}",name="aimock"} 1`);
    expect(text).toContain(`parley_mcp_server_info{server="${server.id}",name="Wiki \\"search\\""} 1`);
    await prisma.provider.update({ where: { id: provider.id }, data: { name: "Renamed" } });
    const again = (await scrapeMetrics(`Bearer ${TOKEN}`)).body;
    expect(again).toContain(`parley_provider_info{provider="${provider.id}",name="Renamed"} 1`);
    expect(again).not.toContain(`name="aimock"`); // a rename replaces the series, it does not add one
  });

  it.skipIf(!fs.existsSync(PROMETHEUS))(
    "is scraped by Prometheus: turns, tokens, cost, refusals, tool errors and pending approvals",
    async () => {
      process.env.METRICS_TOKEN = TOKEN;
      mock.onMessage("count me", { content: "Counted.", usage: { prompt_tokens: 1200, completion_tokens: 300 } } as never);
      const { ctx, chat, model } = await teamWithProvider(mock.url, "openai_chat", "gpt-metrics");
      const prisma = await db();
      await prisma.model.update({ where: { id: model.id }, data: { inputPrice: 1, outputPrice: 4 } });
      const done = storedTurn();
      await readChunks(await runTurn(ctx, { chatId: chat.id, text: "count me" }, { onStored: done.onStored }));
      await done.promise;
      await prisma.budget.create({ data: { teamId: ctx.team.id, scope: "team", metric: "tokens", limit: 100 } });
      // The counter is the process's: other test files in this worker may have counted refusals before.
      const refusalsBefore = (await metrics().budgetRefusals.get()).values.find((v) => v.labels.scope === "team" && v.labels.metric === "tokens")?.value ?? 0;
      expect((await rejection(runTurn(ctx, { chatId: chat.id, text: "refused" }))).status).toBe(429);
      metrics().toolErrors.inc({ code: "Timeout" }, 0); // the series exists before any failure

      const port = await serveMetrics();
      dir = fs.mkdtempSync(path.join(os.tmpdir(), "parley-prom-"));
      const target = `127.0.0.1:${port}`;
      fs.writeFileSync(
        path.join(dir, "prometheus.yml"),
        [
          "global: { scrape_interval: 1s, scrape_timeout: 1s }",
          "scrape_configs:",
          `  - { job_name: parley, metrics_path: /api/metrics, authorization: { credentials: ${TOKEN} }, static_configs: [{ targets: ["${target}"] }] }`,
          `  - { job_name: intruder, metrics_path: /api/metrics, authorization: { credentials: not-the-token }, static_configs: [{ targets: ["${target}"] }] }`,
        ].join("\n"),
      );
      prometheus = spawn(
        PROMETHEUS,
        [`--config.file=${path.join(dir, "prometheus.yml")}`, `--storage.tsdb.path=${path.join(dir, "data")}`, `--web.listen-address=127.0.0.1:${PROM_PORT}`],
        { stdio: "ignore" },
      );

      const tokens = await eventually(
        () => query('parley_tokens_total{job="parley",model="gpt-metrics"}'),
        (r) => r.length >= 4,
        "the token counters",
      );
      const value = (kind: string) => Number(tokens.find((r) => r.metric.kind === kind)?.value[1]);
      expect(value("input")).toBe(1200);
      expect(value("output")).toBe(300);
      expect(Number((await query('parley_cost_usd_total{job="parley",model="gpt-metrics"}'))[0].value[1])).toBeCloseTo(0.0024, 9);
      expect(Number((await query('parley_turns_total{job="parley",outcome="started"}'))[0].value[1])).toBeGreaterThanOrEqual(1);
      expect((await query('parley_budget_refusals_total{job="parley",scope="team",metric="tokens"}'))[0].value[1]).toBe(String(refusalsBefore + 1));
      expect(await query('parley_tool_errors_total{job="parley",code="Timeout"}')).toHaveLength(1);
      expect(await query('parley_pending_approvals{job="parley"}')).toHaveLength(1);
      expect(await query('parley_active_streams{job="parley"}')).toHaveLength(1);
      // The provider's name joins its id (docs/operations.md, "Metrics").
      const named = await eventually(
        () => query('parley_tokens_total{job="parley",model="gpt-metrics",kind="input"} * on(provider) group_left(name) parley_provider_info{job="parley"}'),
        (r) => r.length === 1,
        "the provider's name",
      );
      expect(named[0].metric.name).toBe("aimock");
      // The scrape without the token is refused: Prometheus has that target down with a 401.
      const targets = await eventually(
        async () =>
          (
            (await (await fetch(`http://127.0.0.1:${PROM_PORT}/api/v1/targets`)).json()) as {
              data: { activeTargets: { labels: { job: string }; health: string; lastError: string }[] };
            }
          ).data.activeTargets,
        (t) => t.some((x) => x.labels.job === "intruder" && x.health === "down") && t.some((x) => x.labels.job === "parley" && x.health === "up"),
        "the targets' health",
      );
      expect(targets.find((x) => x.labels.job === "intruder")?.lastError).toMatch(/401/);
      // No message text, key or member name in what Prometheus reads.
      const text = (await scrapeMetrics(`Bearer ${TOKEN}`)).body;
      expect(text).not.toContain("count me");
      expect(text).not.toContain("Counted.");
      expect(text).not.toContain("sk-test");
      expect(text).not.toContain(ctx.user.name + '"');
    },
    120_000,
  );
});
