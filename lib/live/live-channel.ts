// The live channel (GET /api/live): one server-sent event stream per open page instead of a polling
// loop per widget. It reads what the member's pages show live — the team's MCP servers with their
// status and tools, and for admins the calls waiting for an admin — every tick, and sends a named event
// only when that changed (the first tick sends everything); pages of one team share each tick's read.
// The database and this process's MCP pool
// are the source of truth, so every instance answers alike without a message bus. A stream ends after
// MAX_LIFETIME_MS (the browser reconnects, and the session is checked again), when the page goes away,
// or when the server stops (endLiveStreams, from lib/startup.ts).
import { pendingApprovalsMark } from "../approvals/team-approvals";
import { listServers } from "../mcp/servers";
import type { TeamContext } from "../teams/team-context";

export type LiveEvents = {
  /** The team's MCP servers as every member sees them (GET /api/mcp/servers). */
  servers: { servers: Awaited<ReturnType<typeof listServers>> };
  /** Calls waiting for an admin of the team (admins only): how many, and when the newest changed. */
  approvals: { count: number; latest: string | null };
};

export const LIVE_TICK_MS = 2_000;
/** A comment line this often keeps proxies from closing a quiet stream. */
const KEEPALIVE_MS = 25_000;
const MAX_LIFETIME_MS = 5 * 60_000;
/** How soon the browser reconnects after the stream ends (EventSource's `retry`). */
const RETRY_MS = 2_000;

export const LIVE_HEADERS = { "content-type": "text/event-stream", "cache-control": "no-cache, no-transform", "x-accel-buffering": "no" };

/** What the live channel shows a team's members (and, with `admin`, its admins) now. */
async function readState(teamId: string, admin: boolean): Promise<Partial<LiveEvents>> {
  const [servers, approvals] = await Promise.all([listServers(teamId), admin ? pendingApprovalsMark(teamId) : undefined]);
  return { servers: { servers }, ...(approvals ? { approvals } : {}) };
}

/** One read per team and role per tick, however many of its pages are open in this process. */
const reads = new Map<string, { at: number; state: Promise<Partial<LiveEvents>> }>();

/** What the live channel shows `ctx` now (a read younger than `maxAgeMs` is shared). */
export function liveState(ctx: TeamContext, maxAgeMs = LIVE_TICK_MS / 2): Promise<Partial<LiveEvents>> {
  const admin = ctx.team.role === "admin";
  const key = `${ctx.team.id}:${admin}`;
  const now = Date.now();
  const recent = reads.get(key);
  if (recent && now - recent.at < maxAgeMs) return recent.state;
  for (const [k, r] of reads) if (now - r.at >= maxAgeMs) reads.delete(k);
  const state = readState(ctx.team.id, admin);
  reads.set(key, { at: now, state });
  state.catch(() => reads.delete(key));
  return state;
}

const open = new Set<() => void>();

/** Ends every live stream of this process (the server is stopping; browsers reconnect elsewhere). */
export function endLiveStreams(): void {
  for (const end of [...open]) end();
}

/** The live stream of `ctx`'s pages, until `signal` aborts. */
export function liveStream(ctx: TeamContext, signal: AbortSignal, opts: { tickMs?: number; lifetimeMs?: number } = {}): ReadableStream<Uint8Array> {
  const tickMs = opts.tickMs ?? LIVE_TICK_MS;
  const encoder = new TextEncoder();
  const sent = new Map<string, string>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let ended = false;
  let end = () => {};
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const started = Date.now();
      let quietSince = started;
      const write = (text: string) => controller.enqueue(encoder.encode(text));
      end = () => {
        if (ended) return;
        ended = true;
        clearTimeout(timer);
        open.delete(end);
        signal.removeEventListener("abort", end);
        controller.close();
      };
      open.add(end);
      signal.addEventListener("abort", end);
      const tick = async () => {
        if (ended) return;
        try {
          const state = await liveState(ctx, tickMs / 2);
          if (ended) return;
          for (const [event, data] of Object.entries(state)) {
            const json = JSON.stringify(data);
            if (sent.get(event) === json) continue;
            sent.set(event, json);
            write(`event: ${event}\ndata: ${json}\n\n`);
            quietSince = Date.now();
          }
        } catch (err) {
          // The database went away for a moment (or is closing): say nothing new, try again next tick.
          console.warn(`[live] ${(err as Error).message}`);
        }
        if (Date.now() - quietSince >= KEEPALIVE_MS) {
          write(": keep-alive\n\n");
          quietSince = Date.now();
        }
        if (Date.now() - started >= (opts.lifetimeMs ?? MAX_LIFETIME_MS)) return end();
        timer = setTimeout(() => void tick(), tickMs);
      };
      write(`retry: ${RETRY_MS}\n\n`);
      void tick();
    },
    cancel() {
      end();
    },
  });
}
