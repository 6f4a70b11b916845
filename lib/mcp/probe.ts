// "Test connection": a fresh session to the server (the pooled one is replaced, and its revision is
// discovered again), the MCP revision it speaks, its tools with
// descriptions, input schemas and annotations (stored as McpTool rows), or what failed: the kind and,
// for an HTTP refusal, its status and a generic reason, never the body (it may come from an internal
// service).
import type { TeamContext } from "../teams/team-context";
import type { McpFailureKind } from "./failures";
import { classifyFailure } from "./failures";
import { acquire } from "./pool";
import type { McpServer } from "../db/generated/client";
import type { McpServerConfig } from "./config";
import { serverConfig, serverRow } from "./servers";
import { syncToolRows } from "./tool-rows";

export type ProbeResult =
  | {
      ok: true;
      ms: number;
      server?: { name: string; version: string };
      protocolVersion?: string;
      tools: { name: string; title?: string; description?: string; inputSchema: unknown; annotations?: Record<string, unknown> }[];
    }
  | { ok: false; ms: number; kind: McpFailureKind; message: string };

/** `configFor`: the settings to connect with (a server of members' own credentials: the admin's own). */
export async function probeServer(
  ctx: TeamContext,
  serverId: string,
  configFor: (row: McpServer) => Promise<McpServerConfig> = async (row) => serverConfig(row),
): Promise<ProbeResult> {
  const row = await serverRow(ctx.team.id, serverId);
  const started = Date.now();
  try {
    const conn = await acquire(await configFor(row), { force: true });
    await syncToolRows(row.id, conn.tools);
    return {
      ok: true,
      ms: Date.now() - started,
      server: conn.serverInfo,
      protocolVersion: conn.protocolVersion,
      tools: conn.tools.map((t) => ({
        name: t.name,
        title: t.title,
        description: t.description,
        inputSchema: t.inputSchema,
        annotations: t.annotations as Record<string, unknown> | undefined,
      })),
    };
  } catch (err) {
    const f = classifyFailure(err);
    const message =
      f.kind === "http"
        ? `HTTP error: ${f.status ? `HTTP ${f.status} from the server` : "the server refused the request"}${f.status === 401 || f.status === 403 ? ". Check the token or headers." : f.status === 404 ? ". Check the URL." : "."}`
        : f.message;
    return { ok: false, ms: Date.now() - started, kind: f.kind, message };
  }
}
