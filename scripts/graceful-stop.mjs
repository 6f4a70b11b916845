// Installed by scripts/start.mjs in every server process, before Next.js starts: the orderly stop on
// SIGTERM and SIGINT. `next start`'s own handler waits for every connection to end (a signed-in tab's
// polls on keep-alive connections, a live answer's stream, kept it waiting for minutes) and exits
// 143, so it is turned off (NEXT_MANUAL_SIG_HANDLE) and this runs instead, once:
//   1. the HTTP server stops accepting connections; idle ones close now, busy ones after their response;
//      requests under way get up to ANSWERED_MS to be answered (streams go on meanwhile);
//   2. the app ends its work (stopServer in lib/startup.ts, found under STOP_HOOK): answers that are
//      running are kept as far as they were shown, the block writers flushed, the database closed;
//   3. connections still open (live streams of answers another instance runs) are closed: the
//      browser reconnects, or reads the stored answer;
//   4. the process exits 0 — or, whatever is left, 1 at PARLEY_SHUTDOWN_MS (default 10 s), before a
//      container runtime's SIGKILL.
import cluster from "node:cluster";
import http from "node:http";

export const STOP_HOOK = Symbol.for("parley.shutdown.hook");
export const DEFAULT_SHUTDOWN_MS = 10_000;
/** Left at the end of PARLEY_SHUTDOWN_MS for closing connections and exiting (the app's work ends before). */
const MARGIN_MS = 500;
/** How long requests under way may take to be answered before the app closes the database under them. */
const ANSWERED_MS = 1_000;

/** PARLEY_SHUTDOWN_MS, or the default when unset (lib/config.ts refuses a bad value at start-up). */
export function shutdownMs(env = process.env) {
  const raw = env.PARLEY_SHUTDOWN_MS?.trim();
  const ms = raw ? Number(raw) : DEFAULT_SHUTDOWN_MS;
  return Number.isInteger(ms) && ms >= 1_000 ? ms : DEFAULT_SHUTDOWN_MS;
}

const servers = new Set();
/** Open connections, each with how many of its requests are not answered yet. */
const sockets = new Map();
/** Responses not yet sent whole, and who waits for there being none. */
const pending = new Set();
let allAnswered;
let stopping = false;

function track(server) {
  servers.add(server);
  server.on("connection", (socket) => {
    sockets.set(socket, 0);
    socket.once("close", () => sockets.delete(socket));
  });
  server.on("request", (req, res) => {
    const socket = req.socket;
    sockets.set(socket, (sockets.get(socket) ?? 0) + 1);
    // Stopping: this answer is the connection's last (Connection: close).
    if (stopping) res.shouldKeepAlive = false;
    pending.add(res);
    res.once("close", () => {
      pending.delete(res);
      if (!pending.size) allAnswered?.();
      const left = (sockets.get(socket) ?? 1) - 1;
      if (sockets.has(socket)) sockets.set(socket, left);
      if (stopping && left <= 0) socket.end();
    });
  });
}

/** Resolves when every request under way is answered, or after `ms` (a live stream is not done by then). */
function answered(ms) {
  if (!pending.size) return Promise.resolve();
  return Promise.race([new Promise((r) => (allAnswered = r)), new Promise((r) => setTimeout(r, ms))]);
}

/** Ends the connections still open; those that do not close within `ms` are cut. */
async function closeConnections(ms) {
  const open = [...sockets.keys()];
  for (const socket of open) socket.end();
  await Promise.race([Promise.all(open.map((s) => (s.destroyed ? undefined : new Promise((r) => s.once("close", r))))), new Promise((r) => setTimeout(r, ms))]);
  for (const socket of open) socket.destroy();
}

async function stop(signal) {
  if (stopping) return; // a terminal's Ctrl+C reaches a process more than once
  stopping = true;
  const ms = shutdownMs();
  const startedAt = Date.now();
  const forced = setTimeout(
    () => {
      console.error(`[parley] not stopped within ${ms} ms (PARLEY_SHUTDOWN_MS): exiting anyway.`);
      process.exit(1);
    },
    ms - MARGIN_MS / 2,
  );
  forced.unref();
  console.log(`[parley] ${signal}: stopping (within ${ms / 1000} s)…`);
  for (const server of servers) server.close();
  for (const [socket, busy] of sockets) if (busy <= 0) socket.end();
  await answered(ANSWERED_MS);
  try {
    await globalThis[STOP_HOOK]?.({ deadline: startedAt + ms - 4 * MARGIN_MS });
  } catch (err) {
    console.error("[parley] stopping:", err);
  }
  await closeConnections(Math.max(0, startedAt + ms - MARGIN_MS - Date.now()));
  console.log(`[parley] stopped in ${Date.now() - startedAt} ms.`);
  process.exit(0);
}

let installed = false;

/** In a process that is about to run `next start`: the servers it makes are tracked, and signals stop it in order. */
export function installGracefulStop() {
  if (installed) return;
  installed = true;
  const createServer = http.createServer;
  http.createServer = function (...args) {
    const server = createServer.apply(this, args);
    track(server);
    return server;
  };
  process.env.NEXT_MANUAL_SIG_HANDLE = "1";
  for (const signal of ["SIGTERM", "SIGINT"]) process.on(signal, () => void stop(signal));
}

// The processes of PARLEY_PROCESSES load this file with --import (scripts/start.mjs).
if (cluster.isWorker) installGracefulStop();
