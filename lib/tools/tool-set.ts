// The tools of one turn: the enabled tools of the team's enabled MCP servers that the chat has
// selected, from servers that answer now. Servers are reached in parallel, each within its connect
// timeout; one that is down or slow leaves the turn with its tools removed and a notice for the
// answer. Every tool is wrapped (wrap.ts) with the server's call timeout, the turn's abort signal
// and error codes; a result is cut to PARLEY_MAX_TOOL_RESULT_CHARS (mcp/results.ts). Built-in tools
// can join the same set later.
import type { CallToolResult } from "@modelcontextprotocol/client";
import type { JSONSchema7, ToolSet } from "ai";
import { db } from "../db/client";
import type { McpServerConfig } from "../mcp/config";
import { classifyFailure, type McpFailure } from "../mcp/failures";
import { connectTimedOut } from "../mcp/connection";
import type { Elicit } from "../mcp/elicitation-routing";
import { acquire, callTool } from "../mcp/pool";
import { capResult, errorText, resultModelOutput, type CappedResult, type ImageHandling } from "../mcp/results";
import { config as settings } from "../config";
import { citationsFromResult, type ResultCitation } from "../mcp/result-citations";
import { syncToolRows } from "../mcp/tool-rows";
import { namespaceTools } from "../mcp/tool-names";
import { ToolError } from "./error-codes";
import { audit } from "../audit";
import { ConnectRequired } from "../mcp/oauth-provider";
import { markNeedsReconnect } from "../identity/mcp-credentials";
import { memberServerConfig, type CredentialUsed } from "../identity/mcp-member-config";
import { readSelection } from "./selection";
import { offeredTool, type Decide, type OfferedTool } from "../approvals/turn-policy";
import { abortedError, timeoutError, wrapTool } from "./wrap";

type ToolNotice = { code: string; message: string; serverId?: string };

export type AssembleOptions = {
  teamId: string;
  /** The member the turn runs for: their own credential reaches servers that take members' own. */
  userId?: string;
  /** Chat.toolSelection as stored. */
  selection: unknown;
  /**
   * Approval hook: loads (once, and only when some server's tools are about to be offered) the
   * function deciding per tool whether to offer it and its needsApproval. Default: offered, runs
   * without approval (policy `auto`).
   */
  decider?: () => Promise<Decide>;
  /** URLs found in a successful result (resource links, search-like items), for citations. */
  onCitations?: (items: ResultCitation[], call: { toolCallId: string; modelName: string }) => void;
  /** Images in results: attached for a model that sees images, else a placeholder (the default). */
  images?: ImageHandling;
  /** Asks the chat's owner when a server elicits input during a call; without it such requests are cancelled. */
  elicit?: (call: { toolCallId: string; serverId: string; timeoutMs: number; show: (view: unknown) => void }) => Elicit;
  /** Calls whose input a person edited before approving (tool call id -> the model's input): the model is told. */
  editedCalls?: ReadonlyMap<string, unknown>;
};

export type TurnTools = { tools: ToolSet; notices: ToolNotice[]; offered: OfferedTool[] };

/** Maps an MCP failure of a call to the code the model sees. */
function codeForFailure(f: McpFailure, ctx: { timedOut: boolean; aborted: boolean; timeoutMs: number }): ToolError {
  if (ctx.aborted || f.kind === "aborted") return abortedError();
  if (ctx.timedOut || f.kind === "timeout") return timeoutError(ctx.timeoutMs);
  if (f.kind === "auth") return new ToolError("ConnectRequired", `${f.detail} Connect your account again (Settings → Connections).`);
  if (f.kind === "unreachable" || f.kind === "http" || f.kind === "config") return new ToolError("ServerUnavailable", f.message);
  // The MCP client checks structured content against the tool's outputSchema.
  if (/output schema|structured content/i.test(f.detail)) return new ToolError("InvalidOutput", f.detail);
  if (f.rpcCode === -32602) return new ToolError("InvalidArgs", f.detail);
  if (f.rpcCode === -32601) return new ToolError("NoSuchTool", f.detail);
  return new ToolError("ToolFailed", f.detail);
}

function resultError(result: CallToolResult): ToolError {
  const text = errorText(result);
  // SDK servers check their own structured content against the output schema too.
  if (/Output validation error|output schema/i.test(text)) return new ToolError("InvalidOutput", text);
  // SDK servers report schema validation failures as isError results with the JSON-RPC code.
  if (/-32602|Input validation error|Invalid arguments/i.test(text)) return new ToolError("InvalidArgs", text);
  return new ToolError("ToolFailed", text);
}

/** What the model reads before the result of a call a person edited. */
export function editedNote(original: unknown): string {
  return `[Note: before approving, a person changed the arguments of this call. It ran with the arguments shown in the call; you had asked for ${JSON.stringify(original)}.]`;
}

/** Reaches a server within its connect timeout, or says why not. */
async function reach(config: McpServerConfig) {
  const deadline = AbortSignal.timeout(config.connectTimeoutMs);
  try {
    const conn = await acquire(config, { signal: deadline });
    return { ok: true as const, tools: conn.tools };
  } catch (err) {
    // This wait's own deadline may fire before the shared connection attempt says why it stopped.
    return { ok: false as const, failure: deadline.aborted ? connectTimedOut("the server", config.connectTimeoutMs) : classifyFailure(err) };
  }
}

/** The audit event of a call that reached its server: which credential it used (never the credential). */
function recordCall(
  opts: AssembleOptions,
  call: { serverId: string; serverName: string; toolName: string; toolCallId: string; credential: CredentialUsed },
): void {
  void db()
    .then((prisma) =>
      audit(prisma, {
        teamId: opts.teamId,
        actorId: opts.userId ?? null,
        action: "mcp.tool.call",
        targetType: "mcp-server",
        targetId: call.serverId,
        data: { server: call.serverName, tool: call.toolName, toolCallId: call.toolCallId, credential: call.credential },
      }),
    )
    .catch((err) => console.warn("[mcp] could not record a tool call:", (err as Error).message));
}

export async function assembleTools(opts: AssembleOptions): Promise<TurnTools> {
  const selection = readSelection(opts.selection);
  const empty: TurnTools = { tools: {}, notices: [], offered: [] };
  if (!selection.servers.length || !selection.tools.length) return empty;
  const prisma = await db();
  const servers = await prisma.mcpServer.findMany({
    where: { teamId: opts.teamId, enabled: true, id: { in: selection.servers } },
    include: { tools: { where: { enabled: true, id: { in: selection.tools } } } },
    orderBy: { name: "asc" },
  });
  const notices: ToolNotice[] = [];
  const reached = await Promise.all(
    servers
      .filter((s) => s.tools.length)
      .map(async (server) => {
        let config: McpServerConfig;
        let credential: CredentialUsed;
        try {
          if (server.authMode !== "shared" && !opts.userId) throw new ConnectRequired(`Tools of "${server.name}" need a member's own account.`);
          ({ config, credential } = await memberServerConfig(server, opts.userId ?? ""));
        } catch (err) {
          if (err instanceof ConnectRequired) notices.push({ code: "ConnectRequired", message: err.message, serverId: server.id });
          else
            notices.push({
              code: "ToolsUnavailable",
              message: `Tools of "${server.name}" are unavailable: its stored secrets cannot be decrypted with this instance's key.`,
            });
          return undefined;
        }
        const live = await reach(config);
        if (!live.ok) {
          if (live.failure.kind === "auth" && credential !== "shared" && opts.userId) {
            // Expired without a refresh, revoked, or a step-up: the member connects again.
            await markNeedsReconnect(server.id, opts.userId, live.failure.scope);
            notices.push({
              code: "ConnectRequired",
              message: `Your connection to "${server.name}" has expired or was revoked. Connect again to use its tools.`,
              serverId: server.id,
            });
            return undefined;
          }
          notices.push({ code: "ToolsUnavailable", message: `Tools of "${server.name}" are unavailable in this answer. ${live.failure.message}` });
          return undefined;
        }
        void syncToolRows(server.id, live.tools).catch((err) => console.warn(`[mcp] could not store the tools of ${server.name}:`, (err as Error).message));
        const liveByName = new Map(live.tools.map((t) => [t.name, t]));
        return {
          server,
          config,
          credential,
          tools: server.tools.filter((t) => liveByName.has(t.name)).map((row) => ({ row, live: liveByName.get(row.name)! })),
        };
      }),
  );
  const usable = reached.filter((r) => r !== undefined);
  const names = namespaceTools(usable.flatMap((r) => r.tools.map((t) => ({ serverId: r.server.id, serverName: r.server.name, toolName: t.row.name }))));
  const byRef = new Map([...names].map(([name, ref]) => [`${ref.serverId}\u0000${ref.toolName}`, name]));

  const tools: ToolSet = {};
  const offered: OfferedTool[] = [];
  const decide = usable.length ? await opts.decider?.() : undefined;
  for (const { server, config, credential, tools: list } of usable) {
    for (const { row, live } of list) {
      const modelName = byRef.get(`${server.id}\u0000${row.name}`)!;
      const info = offeredTool(modelName, server, row, live);
      // A tool its server meant for its app only is never offered to the model (MCP Apps).
      if (live.appOnly) continue;
      const decision = decide?.(info) ?? { offer: true };
      if (!decision.offer) continue;
      offered.push(info);
      tools[modelName] = wrapTool<CappedResult>({
        description: live.description,
        title: live.title ?? `${server.name} · ${row.name}`,
        inputSchema: { type: "object", properties: {}, ...(live.inputSchema as JSONSchema7) },
        // appUri: the tool's MCP Apps view, shown in its block (lib/mcp-chat/mcp-apps.ts serves it).
        metadata: {
          source: "mcp",
          serverId: server.id,
          serverName: server.name,
          toolName: row.name,
          toolId: row.id,
          ...(live.appUri ? { appUri: live.appUri } : {}),
        },
        timeoutMs: config.callTimeoutMs,
        needsApproval: decision.needsApproval,
        run: async (input, { signal, toolCallId, onProgress, onElicitation }) => {
          const ask = opts.elicit?.({ toolCallId, serverId: server.id, timeoutMs: config.callTimeoutMs, show: onElicitation });
          // A question ends with its call (time limit, Stop) as well as when the server withdraws it.
          const elicit: Elicit | undefined = ask && ((request, withdrawn) => ask(request, AbortSignal.any([withdrawn, signal])));
          const result = await callTool(config, row.name, input, { signal, timeoutMs: config.callTimeoutMs, onProgress, elicit }).catch(async (err) => {
            const failure = classifyFailure(err);
            if (failure.kind === "auth" && credential !== "shared" && opts.userId) await markNeedsReconnect(server.id, opts.userId, failure.scope);
            throw failure;
          });
          recordCall(opts, { serverId: server.id, serverName: server.name, toolName: row.name, toolCallId, credential });
          if (result.isError) throw resultError(result);
          // What the block shows and stores, and the model reads, is bounded (a cut result says so).
          const kept = capResult(result, settings().PARLEY_MAX_TOOL_RESULT_CHARS);
          const cites = citationsFromResult(kept);
          if (cites.length) opts.onCitations?.(cites, { toolCallId, modelName });
          return kept;
        },
        classify: (err, ctx) => codeForFailure(classifyFailure(err), ctx),
        modelOutput: (out) => resultModelOutput(out, opts.images ?? "placeholder"),
        note: (toolCallId) => (opts.editedCalls?.has(toolCallId) ? editedNote(opts.editedCalls.get(toolCallId)) : undefined),
      });
    }
  }
  return { tools, notices, offered };
}
