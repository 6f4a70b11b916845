// mcp.server_down, once per outage: when this process's shared session with an MCP server starts
// failing (lib/mcp/pool.ts tells), the team hears of it, unless another instance already announced
// the same outage (the event's once key, "mcp.server_down:<server>", stands until the server works
// again on some instance, which frees it for the next outage). A disabled or deleted server is no outage.
import { db } from "../db/client";
import { onServerOutage } from "../mcp/pool";
import { recordTeamEventQuietly, releaseOnceKey } from "./events";

const onceKey = (serverId: string) => `mcp.server_down:${serverId}`;

async function outageChanged(serverId: string, down: boolean, reason?: string): Promise<void> {
  if (!down) return releaseOnceKey(onceKey(serverId));
  const server = await (await db()).mcpServer.findUnique({ where: { id: serverId }, select: { teamId: true, name: true, enabled: true } });
  if (!server?.enabled) return;
  await recordTeamEventQuietly(
    { kind: "mcp.server_down", teamId: server.teamId, serverId, serverName: server.name, reason: reason ?? "The server does not answer." },
    { once: onceKey(serverId) },
  );
}

/** Listens to the pool's outages until the returned stop is called. */
export function startMcpOutageEvents(): () => void {
  return onServerOutage(({ serverId, down, reason }) => {
    void outageChanged(serverId, down, reason).catch((err) => console.warn("[notifications] MCP outage:", (err as Error).message));
  });
}
