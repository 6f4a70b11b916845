// The client pool of this process: one connection per MCP server (per server and member for servers
// where each member brings their own credential), opened on first use, shared by every turn, checked with a ping (a discovery on 2026-07-28) before a turn relies on it, reopened with backoff after
// failures, and closed and rebuilt when the server's settings change. Tool lists are cached and
// follow notifications/tools/list_changed. State lives on a globalThis symbol because Next evaluates
// modules once per bundle.
import type { CallToolResult, PriorDiscovery } from "@modelcontextprotocol/client";
import { SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { config } from "../config";
import { fingerprint, type McpServerConfig } from "./config";
import { openConnection, untilAborted, type CallOptions, type McpConnection, type McpToolInfo } from "./connection";
import { classifyFailure, McpFailure, type McpFailureKind } from "./failures";

type McpState = "idle" | "connecting" | "connected" | "error" | "disabled";

export type McpStatus = {
  state: McpState;
  /** The last failure: what, which kind, and when (ISO time). */
  error?: { message: string; kind: McpFailureKind; at: string };
  /** When the next connection attempt may be made after failures (ISO time). */
  retryAt?: string;
  toolCount?: number;
  connectedAt?: string;
};

type Entry = {
  /** The server id, or server and member for a member's own session (config.poolKey). */
  key: string;
  serverId: string;
  fingerprint: string;
  name: string;
  state: McpState;
  conn?: McpConnection;
  pending?: Promise<McpConnection>;
  error?: McpStatus["error"];
  failures: number;
  retryAt: number;
  connectedAt?: Date;
  /** The era the last session found (2026-07-28 discovery, or 2025): the next one skips the probe. */
  verdict?: PriorDiscovery;
};

/** Hears when a server's shared session starts failing (down) and when it works again (up). */
export type OutageListener = (change: { serverId: string; down: boolean; reason?: string }) => void;

type Pool = { entries: Map<string, Entry>; connects: number; backoffBaseMs: number; backoffMaxMs: number; listeners: Set<OutageListener> };

const KEY = Symbol.for("parley.mcpPool");
const holder = globalThis as { [KEY]?: Pool };

function pool(): Pool {
  holder[KEY] ??= {
    entries: new Map(),
    connects: 0,
    backoffBaseMs: config().PARLEY_MCP_BACKOFF_MS,
    backoffMaxMs: 60_000,
    listeners: new Set(),
  };
  holder[KEY].listeners ??= new Set(); // a pool made by an older build of this module (dev reloads)
  return holder[KEY];
}

/** Calls `listener` on each change of a shared session between working and failing; returns its removal. */
export function onServerOutage(listener: OutageListener): () => void {
  pool().listeners.add(listener);
  return () => pool().listeners.delete(listener);
}

/** An outage is a shared session's failures (a member's own credential failing is theirs, not the server's). */
function tell(entry: Entry, down: boolean, reason?: string): void {
  if (entry.key !== entry.serverId) return;
  for (const listener of pool().listeners) {
    try {
      listener({ serverId: entry.serverId, down, reason });
    } catch {
      // A listener's failure is its own.
    }
  }
}

/** Counters and knobs for tests and the status page. */
export function poolStats(): { connects: number; servers: number } {
  const p = pool();
  return { connects: p.connects, servers: p.entries.size };
}

export function setBackoff(baseMs: number, maxMs = 60_000): void {
  pool().backoffBaseMs = baseMs;
  pool().backoffMaxMs = maxMs;
}

function fail(entry: Entry, failure: McpFailure): void {
  if (entry.failures === 0 && failure.kind !== "aborted") tell(entry, true, failure.message);
  entry.state = "error";
  entry.conn = undefined;
  entry.failures += 1;
  const p = pool();
  entry.retryAt = Date.now() + Math.min(p.backoffBaseMs * 2 ** (entry.failures - 1), p.backoffMaxMs);
  entry.error = { message: failure.message, kind: failure.kind, at: new Date().toISOString() };
}

function entryFor(config: McpServerConfig): Entry {
  const p = pool();
  const fp = fingerprint(config);
  const key = config.poolKey ?? config.id;
  let entry = p.entries.get(key);
  if (entry && entry.fingerprint !== fp) {
    // Settings changed: the old session goes, a new one is made on demand.
    void entry.conn?.close();
    entry = undefined;
  }
  if (!entry) {
    entry = { key, serverId: config.id, fingerprint: fp, name: config.name, state: "idle", failures: 0, retryAt: 0 };
    p.entries.set(key, entry);
  }
  entry.name = config.name;
  return entry;
}

function connect(entry: Entry, config: McpServerConfig): Promise<McpConnection> {
  if (entry.pending) return entry.pending;
  entry.state = "connecting";
  const p = pool();
  p.connects += 1;
  // Shared by every caller waiting for it, so no caller's abort signal ends it: only the connect timeout.
  const attempt = openConnection(config, {
    prior: entry.verdict,
    onLost: (failure) => {
      if (entry.conn === conn && p.entries.get(entry.key) === entry) fail(entry, failure);
    },
  });
  let conn: McpConnection | undefined;
  entry.pending = attempt
    .then((c) => {
      conn = c;
      if (p.entries.get(entry.key) !== entry) {
        // Evicted while connecting.
        void c.close();
        throw new McpFailure("aborted", "The server's settings changed while connecting.");
      }
      entry.conn = c;
      entry.verdict = c.verdict;
      entry.state = "connected";
      if (entry.failures > 0) tell(entry, false);
      entry.failures = 0;
      entry.retryAt = 0;
      entry.error = undefined;
      entry.connectedAt = new Date();
      return c;
    })
    .catch((err) => {
      const failure = classifyFailure(err);
      // The server may have changed revision: the next attempt asks again.
      entry.verdict = undefined;
      if (p.entries.get(entry.key) === entry) fail(entry, failure);
      throw failure;
    })
    .finally(() => {
      entry.pending = undefined;
    });
  return entry.pending;
}

/**
 * A working connection to the server, within its connect timeout: the cached one after a ping, or
 * a new one. While a failed server is backing off, throws its last failure at once (no waiting).
 * `force` skips the backoff and makes a fresh session (the admin's "Test connection").
 */
export async function acquire(config: McpServerConfig, opts: { force?: boolean; signal?: AbortSignal; ping?: boolean } = {}): Promise<McpConnection> {
  const entry = entryFor(config);
  if (opts.force) {
    void entry.conn?.close();
    entry.conn = undefined;
    entry.verdict = undefined;
    entry.retryAt = 0;
  }
  if (entry.conn && opts.ping !== false) {
    try {
      await entry.conn.ping(AbortSignal.any([AbortSignal.timeout(Math.min(config.connectTimeoutMs, 5000)), ...(opts.signal ? [opts.signal] : [])]));
      return entry.conn;
    } catch {
      // Gone stale (server restarted, session expired): reconnect right away, once.
      const stale = entry.conn;
      entry.conn = undefined;
      entry.state = "idle";
      void stale?.close();
    }
  }
  if (entry.conn) return entry.conn;
  if (!entry.pending && entry.state === "error" && Date.now() < entry.retryAt) {
    const secs = Math.ceil((entry.retryAt - Date.now()) / 1000);
    throw new McpFailure(entry.error?.kind ?? "unreachable", `${entry.error?.message ?? "the server failed"} (next attempt in ${secs} s)`);
  }
  // Stops this caller's wait, not the shared attempt.
  return untilAborted(connect(entry, config), opts.signal, (signal) => classifyFailure(signal.reason));
}

/** The server's tools (cached; follows list_changed), connecting if needed. */
export async function listTools(config: McpServerConfig, opts: { force?: boolean; signal?: AbortSignal } = {}): Promise<McpToolInfo[]> {
  return (await acquire(config, opts)).tools;
}

/**
 * Calls a tool on the pooled connection. Connection-level failures mark the server failed (its
 * tools leave later turns until it is back); errors come back as McpFailure.
 */
export async function callTool(config: McpServerConfig, name: string, args: Record<string, unknown>, opts: CallOptions): Promise<CallToolResult> {
  const entry = entryFor(config);
  // An MCP client span (a no-op unless tracing is on; lib/observability/tracing.ts): names, never arguments.
  const span = trace.getTracer("parley").startSpan(`tools/call ${name}`, {
    kind: SpanKind.CLIENT,
    attributes: {
      "mcp.method.name": "tools/call",
      "gen_ai.tool.name": name,
      "gen_ai.operation.name": "execute_tool",
      "parley.mcp.server.id": config.id,
      "network.transport": config.transport === "stdio" ? "pipe" : "tcp",
    },
  });
  try {
    const conn = await acquire(config, { signal: opts.signal, ping: false });
    try {
      const result = await conn.callTool(name, args, opts);
      if (result.isError) span.setAttribute("error.type", "ToolFailed");
      return result;
    } catch (err) {
      const failure = classifyFailure(err);
      if ((failure.kind === "unreachable" || failure.kind === "http") && entry.conn === conn) {
        void conn.close();
        fail(entry, failure);
      }
      // A refused member credential: the session goes; the next one starts from the stored credential.
      if (failure.kind === "auth" && entry.conn === conn) void evictKey(entry.key);
      throw failure;
    }
  } catch (err) {
    span.setStatus({ code: SpanStatusCode.ERROR });
    span.setAttribute("error.type", err instanceof McpFailure ? err.kind : "unknown");
    throw err;
  } finally {
    span.end();
  }
}

/** Every server this process has a session with, and its state (for the metrics scrape). */
export function poolHealth(): { serverId: string; state: McpState }[] {
  return [...pool().entries.values()].map((e) => ({ serverId: e.serverId, state: e.state }));
}

/** The tools the server's shared session lists now (undefined without a live session). */
export function liveTools(serverId: string): readonly McpToolInfo[] | undefined {
  return pool().entries.get(serverId)?.conn?.tools;
}

export function status(serverId: string, enabled = true): McpStatus {
  if (!enabled) return { state: "disabled" };
  const entry = pool().entries.get(serverId);
  if (!entry) return { state: "idle" };
  return {
    state: entry.state,
    error: entry.error,
    retryAt: entry.state === "error" && entry.retryAt ? new Date(entry.retryAt).toISOString() : undefined,
    toolCount: entry.conn?.tools.length,
    connectedAt: entry.connectedAt?.toISOString(),
  };
}

/** Closes and forgets a server's sessions, its members' too (settings changed, disabled, deleted). */
export async function evict(serverId: string): Promise<void> {
  const p = pool();
  const gone = [...p.entries.values()].filter((e) => e.serverId === serverId);
  for (const e of gone) p.entries.delete(e.key);
  await Promise.all(gone.map((e) => e.conn?.close()));
}

/** Closes and forgets one member's session with a server (they disconnected or reconnected). */
export async function evictKey(key: string): Promise<void> {
  const p = pool();
  const entry = p.entries.get(key);
  p.entries.delete(key);
  await entry?.conn?.close();
}

/** Closes every session (tests, shutdown). */
export async function closeAll(): Promise<void> {
  const p = pool();
  const entries = [...p.entries.values()];
  p.entries.clear();
  await Promise.all(entries.map((e) => e.conn?.close()));
}
