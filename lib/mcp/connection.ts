// One live MCP client session: the transport for the server's settings (Streamable HTTP, SSE, or a
// stdio child process; transport.ts), the protocol revision agreed within the connect timeout
// (`server/discover` for 2026-07-28, else the 2025-11-25 initialize handshake), the tool list
// (refreshed on notifications/tools/list_changed: unsolicited on 2025, on the subscriptions/listen
// stream on 2026), calls with progress, timeout, abort and questions to the person. The pool
// (pool.ts) keeps one of these per server; the conformance client uses it directly. Before an HTTP or
// SSE session opens, every address the URL's host resolves to is checked against the address rules,
// and every connection goes through the outbound fetch, which connects only to checked addresses; the
// SDK follows redirects within the same origin only. A connection that drops while calls wait ends
// the session at once (the calls fail as unreachable, the pool hears of it through onLost).
import { Client, type CallToolResult, type McpSubscription, type PriorDiscovery, type Tool, type Transport } from "@modelcontextprotocol/client";
import { APPS_EXTENSION, toolAppUri, toolIsAppOnly, toolIsModelOnly } from "./app-meta";
import { catalogOf, type McpCatalogAccess } from "./catalog-access";
import { checkTarget, OutboundRefused, type OutboundOptions } from "../security/outbound-fetch";
import type { McpServerConfig } from "./config";
import { routeElicitation, runAsking, type Elicit } from "./elicitation-routing";
import { classifyFailure, McpFailure } from "./failures";
import { connectionLost, makeTransport, type SessionNotes } from "./transport";

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
  /** The protocol revision agreed on: 2026-07-28 (discovered), or a 2025 one (the initialize handshake). */
  readonly protocolVersion?: string;
  /** The era verdict of this session, for the next one to the same server (skips the probe). */
  readonly verdict?: PriorDiscovery;
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
  /** An earlier session's era verdict for this server: connect without probing. */
  prior?: PriorDiscovery;
};

const CLIENT_INFO = { name: "parley", version: "0.1.0" };

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

/** A server that did not connect within its connect timeout, named so an operator sees which applied. */
export function connectTimedOut(what: string, timeoutMs: number): McpFailure {
  return new McpFailure("timeout", `${what} did not answer within its connect timeout (${Math.round(timeoutMs / 100) / 10} s).`);
}

/** Why connecting stopped: the connect timeout, or the caller's signal. */
function connectStopped(what: string, timeoutMs: number) {
  return (signal: AbortSignal) =>
    (signal.reason as { name?: string } | undefined)?.name === "TimeoutError"
      ? connectTimedOut(what, timeoutMs)
      : new McpFailure("aborted", "Connecting was stopped.");
}

/** Every tool, pages followed by the SDK (up to 50); its cached list serves output checks and header mirroring. */
async function listAllTools(client: Client, signal: AbortSignal, timeout: number): Promise<McpToolInfo[]> {
  const res = await client.listTools(undefined, { signal, timeout, cacheMode: "refresh" });
  return res.tools.map(pickTool);
}

/** The SDK's own progress ticks while it answers a server's questions inside a call (2026-07-28): not the server's. */
const fulfilling = (message: string | undefined) => !!message && /^Fulfilling input required by '/.test(message);

/**
 * Connects, agrees on a revision and lists the tools, all within the connect timeout (and `signal`).
 * The revision is discovered (`server/discover`, 2026-07-28) with a fall back to the 2025-11-25
 * handshake; an SSE server is always 2025. Throws an McpFailure saying what went wrong; a half-open
 * session is closed.
 */
export async function openConnection(
  config: McpServerConfig,
  events: ConnectionEvents = {},
  signal?: AbortSignal,
  outbound?: OutboundOptions,
): Promise<McpConnection> {
  const deadline = AbortSignal.any([AbortSignal.timeout(config.connectTimeoutMs), ...(signal ? [signal] : [])]);
  const notes: SessionNotes = { stderr: "" };
  let closing = false;
  let tools: McpToolInfo[] = [];
  const client = new Client(CLIENT_INFO, {
    // Elicitation (forms and URLs) is answered by the person whose call asked (elicitation-routing.ts);
    // tools' MCP Apps views are shown in their blocks (app-meta.ts).
    capabilities: { elicitation: { form: {}, url: {} }, extensions: APPS_EXTENSION },
    versionNegotiation: { mode: "auto", probe: { timeoutMs: config.connectTimeoutMs } },
    // On 2026-07-28 the server asks its questions inside a call's answer; the SDK answers them through
    // the same elicitation handler and sends the call again, at most this many times.
    inputRequired: { maxRounds: 10 },
    listMaxPages: 50,
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
  client.setRequestHandler("elicitation/create", (req, ctx) => routeElicitation(req.params, ctx.mcpReq.signal, asking));
  const what = `MCP server "${config.name}"`;
  let transport: Transport | undefined;
  try {
    if (config.transport !== "stdio" && config.url) {
      await checkTarget(config.url, outbound).catch((err: Error) => {
        throw err instanceof OutboundRefused ? new McpFailure("config", err.message) : err;
      });
    }
    transport = makeTransport(config, notes, outbound);
    const prior: PriorDiscovery | undefined = config.transport === "sse" ? { kind: "legacy" } : events.prior;
    await untilAborted(
      client.connect(transport, { signal: deadline, timeout: config.connectTimeoutMs, prior }),
      deadline,
      connectStopped(what, config.connectTimeoutMs),
    );
    tools = await untilAborted(listAllTools(client, deadline, config.connectTimeoutMs), deadline, connectStopped(what, config.connectTimeoutMs));
  } catch (err) {
    closing = true;
    await client.close().catch(() => {});
    const failure = classifyFailure(notes.refused ?? err, what);
    const tail = notes.stderr.trim().split("\n").slice(-3).join(" | ");
    if (tail && failure.kind !== "timeout") throw new McpFailure(failure.kind, `${failure.detail} (stderr: ${tail})`, failure.status, failure.rpcCode);
    throw failure;
  }
  const modern = client.getProtocolEra() === "modern";
  const discovered = client.getDiscoverResult();
  /** Is the server there? 2026-07-28 has no ping: discovery is the cheapest request. */
  const alive = async (opts: { signal?: AbortSignal; timeout: number }) => {
    if (modern) await client.discover(opts);
    else await client.ping(opts);
  };
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
  /** A stream broke: the session goes when the server does not answer either; `then` runs when it does. */
  const check = (why: string, then?: () => void) => {
    if (probing || closing || lost) return;
    probing = true;
    alive({ timeout: config.connectTimeoutMs })
      .then(
        () => then?.(),
        (pingErr: unknown) => {
          const failure = classifyFailure(pingErr, what);
          if (failure.kind === "unreachable" || failure.kind === "http") lose(`${why} and the server did not answer: ${failure.detail}`);
        },
      )
      .finally(() => (probing = false));
  };
  client.onerror = (err) => {
    const why = connectionLost(err);
    if (why) return lose(why);
    // A stream broke; the SDK may resume it. Asking the server says at once whether it is still there.
    if (/^SSE stream disconnected/.test(err.message)) check("a stream broke");
  };
  // 2026-07-28: list changes come on the stream the SDK opened (subscriptions/listen). When it drops,
  // the server is asked whether it is there; if it is, the stream is opened again.
  const watchChanges = (sub: McpSubscription | undefined) => {
    void sub?.closed.then((reason) => {
      if (reason === "remote" && !closing && !lost) check("the change stream broke", relisten);
    });
  };
  const relisten = () => {
    if (closing || lost) return;
    client
      .listen({ toolsListChanged: true })
      .then(watchChanges, (err: unknown) => lose(`the change stream could not be opened again: ${classifyFailure(err, what).detail}`));
  };
  if (modern) watchChanges(client.autoOpenedSubscription);
  const info = client.getServerVersion();
  return {
    get tools() {
      return tools;
    },
    serverInfo: info ? { name: info.name, version: info.version } : undefined,
    protocolVersion: client.getNegotiatedProtocolVersion(),
    verdict: discovered ? { kind: "modern", discover: discovered } : { kind: "legacy" },
    async callTool(name, args, opts) {
      if (opts.elicit) asking.add(opts.elicit);
      const onprogress = opts.onProgress;
      try {
        const res = await runAsking(opts.elicit, () =>
          client.callTool(
            { name, arguments: args },
            {
              signal: opts.signal,
              timeout: opts.timeoutMs,
              // A person answering the server's questions takes time between the call's legs.
              maxTotalTimeout: opts.timeoutMs,
              onprogress: onprogress ? (p) => !fulfilling(p.message) && onprogress({ progress: p.progress, total: p.total, message: p.message }) : undefined,
            },
          ),
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
        await alive({ signal: pingSignal, timeout: config.connectTimeoutMs });
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
