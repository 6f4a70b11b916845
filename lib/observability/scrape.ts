// What Prometheus gets from /api/metrics: the registry's text, after reading the gauges that are read
// at scrape time (pending approvals from the database, this process's MCP sessions, the names of
// providers and MCP servers by id). Guarded by
// METRICS_TOKEN (a bearer token, compared in constant time); unset, the endpoint is off (404).
import crypto from "node:crypto";
import { config } from "../config";
import { db } from "../db/client";
import { NotFound, Unauthorized } from "../errors";
import { poolHealth } from "../mcp/pool";
import { metrics } from "./metrics";

/** Every tool call waiting for a decision, by member or admin (the Approvals badge counts only admin-only ones: countPendingApprovals in lib/approvals/team-approvals.ts). */
export async function countWaitingToolCalls(): Promise<number> {
  const prisma = await db();
  return prisma.block.count({ where: { kind: "tool", status: "approval-requested" } });
}

function authorised(header: string | null, token: string): boolean {
  const given = Buffer.from(header?.replace(/^Bearer\s+/i, "") ?? "");
  const want = Buffer.from(token);
  return given.length === want.length && crypto.timingSafeEqual(given, want);
}

/** The info series: one per provider and MCP server as they are named now (renamed or deleted ones go). */
async function readNames(m: ReturnType<typeof metrics>): Promise<void> {
  const prisma = await db();
  const [providers, servers] = await Promise.all([
    prisma.provider.findMany({ select: { id: true, name: true } }),
    prisma.mcpServer.findMany({ select: { id: true, name: true } }),
  ]);
  m.providerInfo.reset();
  for (const p of providers) m.providerInfo.set({ provider: p.id, name: p.name }, 1);
  m.mcpServerInfo.reset();
  for (const s of servers) m.mcpServerInfo.set({ server: s.id, name: s.name }, 1);
}

/** The metrics text for a scrape; 404 when metrics are off, 401 without the right token. */
export async function scrapeMetrics(authorization: string | null): Promise<{ body: string; contentType: string }> {
  const token = config().METRICS_TOKEN;
  if (!token) throw NotFound();
  if (!authorised(authorization, token)) throw Unauthorized("A bearer token is required.");
  const m = metrics();
  m.pendingApprovals.set(await countWaitingToolCalls());
  await readNames(m);
  m.mcpServerUp.reset();
  for (const s of poolHealth()) m.mcpServerUp.set({ server: s.serverId, state: s.state }, s.state === "connected" ? 1 : 0);
  return { body: await m.registry.metrics(), contentType: m.registry.contentType };
}
