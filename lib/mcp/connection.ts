// One live MCP client session: the transport for the server's settings (Streamable HTTP, SSE, or a
// stdio child process), initialise within the connect timeout, the tool list (refreshed when the
// server sends notifications/tools/list_changed), calls with progress, timeout and abort. The pool
// (pool.ts) keeps one of these per server; the conformance client uses it directly. Before an HTTP or
// SSE session opens, every address the URL's host resolves to is checked against the address rules,
// and every connection goes through the outbound fetch, which connects only to checked addresses; the
// SDK follows redirects within the same origin only. A connection that drops while calls wait ends
// the session at once (the calls fail as unreachable, the pool hears of it through onLost).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SseError, SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ElicitRequestSchema, type CallToolResult, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { APPS_EXTENSION, toolAppUri, toolIsAppOnly, toolIsModelOnly } from "./app-meta";
import { catalogOf, type McpCatalogAccess } from "./catalog-access";
import { checkTarget, createOutboundFetch, OutboundRefused, outboundFetch, type OutboundOptions } from "../security/outbound-fetch";
import { boundedFetch } from "./bounded-fetch";
import { stdioAllowed, type McpServerConfig } from "./config";
import { answerDroppedCalls } from "./dropped-calls";
import { routeElicitation, runAsking, type Elicit } from "./elicitation-routing";
import { classifyFailure, McpFailure } from "./failures";
import { renewingRefusedTokens } from "./refused-tokens";
import { standardResponses } from "./standard-response";

export type McpToolInfo = Pick<Tool, "name" | "title" | "description" | "inputSchema" | "annotations" | "outputSchema"> & {
  /** The `ui://` view the tool declares (MCP Apps, app-meta.ts). */
  appUri?: string;
  /** Meant for its app only: never offered to the model. */
  appOnly?: boolean;
  /** Meant for the model only: a view may not call it. */
  modelOnly?: boolean;
};
export type Progress = { progress: number; total?: number; message?: string };

export type McpConnection = {
  readonly tools: McpToolInfo[];
  readonly serverInfo?: { name: string; version: string };
  callTool(name: string, args: Record<string, unknown>, opts: CallOptions): Promise<CallToolResult>;
  ping(signal: AbortSignal): Promise<void>;
  /** Resources, resource templates and prompts the server offers (catalog.ts). */
  catalog: McpCatalogAccess;
  close(): Promise<void>;
};


export type CallOptions = {
  signal?: AbortSignal;
  timeoutMs: number;
  onProgress?: (p: Progress) => void;
  /** Asks the person behind this call when the server elicits input (without it, elicitations are cancelled). */
  elicit?: Elicit;
};

export type ConnectionEvents = {
  /** The server changed its tool list and the new list has been fetched. */
  onToolsChanged?: (tools: McpToolInfo[]) => void;
  /** The session ended without close() being called (process exit, dropped stream). */
  onLost?: (failure: McpFailure) => void;
};

const CLIENT_INFO = { name: "parley", version: "0.1.0" };
const STDERR_KEEP = 2000;

function pickTool(t: Tool): McpToolInfo {
  const appUri = toolAppUri(t);
  return {
    name: t.name,
    title: t.title ?? t.annotations?.title,
    description: t.description,
    inputSchema: t.inputSchema,
    annotations: t.annotations,
    outputSchema: t.outputSchema,
    ...(appUri ? { appUri } : {}),
    ...(toolIsAppOnly(t) ? { appOnly: true } : {}),
    ...(toolIsModelOnly(t) ? { modelOnly: true } : {}),
  };
}

/** What a session noticed along the way, for its error messages. */
type SessionNotes = { stderr: string; refused?: Error };

function makeTransport(config: McpServerConfig, notes: SessionNotes, outbound?: OutboundOptions): Transport {
  if (config.transport === "stdio") {
    if (!stdioAllowed()) throw new McpFailure("config", "stdio MCP servers are turned off on this instance (the operator sets PARLEY_ALLOW_STDIO_MCP=1 to allow them).");
    if (!config.command) throw new McpFailure("config", "No command is set for this stdio server.");
    const transport = new StdioClientTransport({
      command: config.command,
      args: config.args ?? [],
      env: { ...getDefaultEnvironment(), ...(config.env ?? {}) },
      stderr: "pipe",
    });
    // Keep the end of the child's stderr for error messages; never print it (it may echo secrets).
    transport.stderr?.on("data", (chunk: Buffer) => {
      notes.stderr = (notes.stderr + chunk.toString("utf8")).slice(-STDERR_KEEP);
    });
    return transport;
  }
  if (!config.url) throw new McpFailure("config", "No URL is set for this server.");
  const url = new URL(config.url);
  const requestInit: RequestInit = { headers: config.headers ?? {} };
  // Every connection is made to an address checked against the address rules as it opens.
  const net = standardResponses(outbound ? createOutboundFetch(outbound) : outboundFetch());
  if (config.transport === "sse") {
    return new SSEClientTransport(url, {
      requestInit,
      authProvider: config.authProvider,
      fetch: renewingRefusedTokens(net, config.authProvider),
      // The SSE GET goes through EventSource (the SDK adds the headers), which keeps only the text of
      // a failure: a refusal by the address rules is noted here. Oversized events are dropped.
      eventSourceInit: {
        fetch: boundedFetch(undefined, (u, init) =>
          net(u, init).catch((err: Error) => {
            if ((err.cause as { code?: string } | undefined)?.code === "EPARLEYREFUSED") notes.refused = err;
            throw err;
          }),
        ),
      },
    });
  }
  return new StreamableHTTPClientTransport(url, {
    requestInit,
    authProvider: config.authProvider,
    // No message from the server is read past 8 × PARLEY_MAX_TOOL_RESULT_CHARS bytes (bounded-fetch.ts);
    // a call's answer stream that breaks before the answer ends the call at once (dropped-calls.ts).
    // A member's refused token is renewed once for all calls refused with it (refused-tokens.ts).
    fetch: renewingRefusedTokens(answerDroppedCalls(boundedFetch(undefined, net)), config.authProvider),
    reconnectionOptions: { initialReconnectionDelay: 1000, maxReconnectionDelay: 30_000, reconnectionDelayGrowFactor: 1.5, maxRetries: 2 },
  });
}

/**
 * Whether a transport error means the session is gone: the SSE transport's event stream broke (an
 * SSE session lives and dies with it), or the Streamable HTTP transport gave up reconnecting a
 * stream (the server is not there any more). Says why, or undefined for errors that pass.
 */
function connectionLost(err: Error): string | undefined {
  if (err instanceof SseError) return err.message;
  if (/^Maximum reconnection attempts/.test(err.message)) return `its event stream broke and could not be reopened`;
  return undefined;
}

/** Stops waiting (without stopping the work) when `signal` aborts: rejects with `onAbort(signal)`. */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined, onAbort: (signal: AbortSignal) => Error): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(onAbort(signal));
    if (signal.aborted) return abort();
    signal.addEventListener("abort", abort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", abort));
  });
}

/** Why connecting stopped: the connect timeout, or the caller's signal. */
function connectStopped(what: string) {
  return (signal: AbortSignal) =>
    (signal.reason as { name?: string } | undefined)?.name === "TimeoutError"
      ? new McpFailure("timeout", `${what} did not answer within the connect timeout.`)
      : new McpFailure("aborted", "Connecting was stopped.");
}

async function listAllTools(client: Client, signal: AbortSignal, timeout: number): Promise<McpToolInfo[]> {
  const out: McpToolInfo[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 50; page++) {
    const res = await client.listTools(cursor ? { cursor } : undefined, { signal, timeout });
    out.push(...res.tools.map(pickTool));
    cursor = res.nextCursor;
    if (!cursor) break;
  }
  return out;
}

/**
 * Connects, initialises and lists the tools, all within the connect timeout (and `signal`). Throws
 * an McpFailure saying what went wrong; a half-open session is closed.
 */
export async function openConnection(config: McpServerConfig, events: ConnectionEvents = {}, signal?: AbortSignal, outbound?: OutboundOptions): Promise<McpConnection> {
  const deadline = AbortSignal.any([AbortSignal.timeout(config.connectTimeoutMs), ...(signal ? [signal] : [])]);
  const notes: SessionNotes = { stderr: "" };
  let closing = false;
  let tools: McpToolInfo[] = [];
  const client = new Client(CLIENT_INFO, {
    // Elicitation (forms and URLs) is answered by the person whose call asked (elicitation-routing.ts);
    // tools' MCP Apps views are shown in their blocks (app-meta.ts).
    capabilities: { elicitation: { form: {}, url: {} }, extensions: APPS_EXTENSION },
    listChanged: {
      tools: {
        debounceMs: 50,
        onChanged: (err, list) => {
          if (err || !list) return;
          tools = list.map(pickTool);
          events.onToolsChanged?.(tools);
        },
      },
    },
  });
  const asking = new Set<Elicit>();
  client.setRequestHandler(ElicitRequestSchema, (req, extra) => routeElicitation(req.params, extra.signal, asking));
  const what = `MCP server "${config.name}"`;
  let transport: Transport | undefined;
  try {
    if (config.transport !== "stdio" && config.url) {
      await checkTarget(config.url, outbound).catch((err: Error) => {
        throw err instanceof OutboundRefused ? new McpFailure("config", err.message) : err;
      });
    }
    transport = makeTransport(config, notes, outbound);
    await untilAborted(client.connect(transport, { signal: deadline, timeout: config.connectTimeoutMs }), deadline, connectStopped(what));
    tools = await untilAborted(listAllTools(client, deadline, config.connectTimeoutMs), deadline, connectStopped(what));
  } catch (err) {
    closing = true;
    await client.close().catch(() => {});
    const failure = classifyFailure(notes.refused ?? err, what);
    const tail = notes.stderr.trim().split("\n").slice(-3).join(" | ");
    if (tail && failure.kind !== "timeout") throw new McpFailure(failure.kind, `${failure.detail} (stderr: ${tail})`, failure.status, failure.rpcCode);
    throw failure;
  }
  let lost: McpFailure | undefined;
  client.onclose = () => {
    if (closing) return;
    const tail = notes.stderr.trim().split("\n").slice(-3).join(" | ");
    events.onLost?.(lost ?? new McpFailure("unreachable", `the connection to ${what} closed${tail ? ` (stderr: ${tail})` : ""}.`));
  };
  // A dropped HTTP or SSE connection ends the session at once: the calls waiting on it fail as
  // unreachable (instead of at their timeout) and the pool hears of it through onLost.
  const lose = (why: string) => {
    if (closing || lost) return;
    lost = new McpFailure("unreachable", `the connection to ${what} was lost (${why}).`);
    void client.close().catch(() => {});
  };
  let probing = false;
  client.onerror = (err) => {
    const why = connectionLost(err);
    if (why) return lose(why);
    // A stream broke; the SDK may resume it. A ping says at once whether the server is still there.
    if (!/^SSE stream disconnected/.test(err.message) || probing || closing || lost) return;
    probing = true;
    client
      .ping({ timeout: config.connectTimeoutMs })
      .catch((pingErr: unknown) => {
        const failure = classifyFailure(pingErr, what);
        if (failure.kind === "unreachable" || failure.kind === "http") lose(`a stream broke and a ping failed: ${failure.detail}`);
      })
      .finally(() => (probing = false));
  };
  const info = client.getServerVersion();
  return {
    get tools() {
      return tools;
    },
    serverInfo: info ? { name: info.name, version: info.version } : undefined,
    async callTool(name, args, opts) {
      if (opts.elicit) asking.add(opts.elicit);
      try {
        const res = await runAsking(opts.elicit, () =>
          client.callTool({ name, arguments: args }, undefined, {
            signal: opts.signal,
            timeout: opts.timeoutMs,
            onprogress: opts.onProgress ? (p) => opts.onProgress!({ progress: p.progress, total: p.total, message: p.message }) : undefined,
          }),
        );
        return res as CallToolResult;
      } catch (err) {
        // An abort carries the signal's reason (a TimeoutError for the call timeout).
        const reason = opts.signal?.aborted ? opts.signal.reason : (lost ?? err);
        throw classifyFailure(reason, what);
      } finally {
        if (opts.elicit) asking.delete(opts.elicit);
      }
    },
    async ping(pingSignal) {
      try {
        await client.ping({ signal: pingSignal, timeout: config.connectTimeoutMs });
      } catch (err) {
        throw classifyFailure(pingSignal.aborted ? pingSignal.reason : err, what);
      }
    },
    catalog: catalogOf(client, config.connectTimeoutMs, what),
    async close() {
      closing = true;
      await client.close().catch(() => {});
    },
  };
}
