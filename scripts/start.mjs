// `npm start`: Parley's production server (`next start`). It builds first (`next build`) only when
// the build on disk is not of this source (its build id is the source's fingerprint, see
// source-hash.mjs), so a second start takes seconds. Once the server answers, it prints where Parley
// is ready. Arguments go on to `next start` (`-p 3000`, `-H 0.0.0.0`).
//
// One Node.js process runs its JavaScript on one core, so one process is the limit of one core
// whatever the machine (80 chats streaming at a model's pace on Node 24; npm run bench). It refuses an
// older Node and says how to get Node 24 (node-runtime.mjs). PARLEY_PROCESSES=N (or
// "auto": one per core) runs N processes that share one port through node:cluster. They must share
// their state, so several processes need PostgreSQL (DATABASE_URL) and Redis (REDIS_URL: live
// streams, stop signals and rate limits); without them this refuses to start, and says why.
// A process that dies is replaced; one that dies before it booted (a failed start: a wrong secret
// key, a database that is down) stops the whole server with its exit code.
//
// SIGTERM and SIGINT stop the server in order within PARLEY_SHUTDOWN_MS (graceful-stop.mjs, in each
// server process); with several processes, this one passes the signal on, waits for them and exits 0.
import { spawnSync } from "node:child_process";
import cluster from "node:cluster";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { requireNode } from "./node-runtime.mjs";
import { installGracefulStop, shutdownMs } from "./graceful-stop.mjs";
import { sourceHash } from "./source-hash.mjs";

const require = createRequire(import.meta.url);
const NEXT = require.resolve("next/dist/bin/next");
// Stamps each request with its connection's address, for sign-in limits (see the file).
const STAMP = new URL("./connection-address.mjs", import.meta.url).href;
// The orderly stop on SIGTERM and SIGINT (see the file).
const GRACEFUL = new URL("./graceful-stop.mjs", import.meta.url).href;
const args = ["start", ...process.argv.slice(2)];

/** How many processes PARLEY_PROCESSES asks for, or an error message. */
function processCount(env = process.env) {
  const raw = env.PARLEY_PROCESSES?.trim().toLowerCase();
  if (!raw) return { count: 1 };
  const count = raw === "auto" ? os.availableParallelism() : Number(raw);
  if (!Number.isInteger(count) || count < 1 || count > 256) {
    return { error: `PARLEY_PROCESSES must be a whole number from 1 to 256, or "auto" (got "${env.PARLEY_PROCESSES}").` };
  }
  if (count > 1 && !env.DATABASE_URL?.trim()) {
    return { error: `PARLEY_PROCESSES=${raw} needs PostgreSQL: set DATABASE_URL (the embedded database belongs to one process).` };
  }
  if (count > 1 && !env.REDIS_URL?.trim()) {
    return { error: `PARLEY_PROCESSES=${raw} needs Redis: set REDIS_URL (processes share live streams, stop signals and rate limits through it).` };
  }
  return { count };
}

async function runNextHere() {
  process.argv = [process.argv[0], NEXT, ...args];
  await import(STAMP);
  installGracefulStop();
  require(NEXT);
}

function runCluster(count) {
  cluster.setupPrimary({ exec: NEXT, args, execArgv: [...process.execArgv, "--import", STAMP, "--import", GRACEFUL] });
  const booted = new WeakSet();
  let stopping = false;
  let first = true;
  const fork = () => cluster.fork();

  // A process has booted when start-up (lib/startup.ts: migrations, the secret key) went through.
  // The first one boots alone, so that it alone migrates a new database and creates its key file.
  cluster.on("message", (worker, message) => {
    if (message?.parley !== "ready") return;
    booted.add(worker);
    if (first) {
      first = false;
      for (let i = 1; i < count; i++) fork();
    }
  });
  cluster.on("exit", (worker, code, signal) => {
    if (stopping) {
      if (code) process.exitCode = code;
      if (!Object.keys(cluster.workers ?? {}).length) process.exit(process.exitCode ?? 0);
      return;
    }
    if (!booted.has(worker)) {
      console.error(`[parley] a server process failed to start (${signal ?? `exit ${code}`}); stopping.`);
      stopping = true;
      for (const w of Object.values(cluster.workers ?? {})) w?.kill("SIGTERM");
      process.exitCode = code || 1;
      if (!Object.keys(cluster.workers ?? {}).length) process.exit(process.exitCode);
      return;
    }
    console.error(`[parley] server process ${worker.process.pid} ended (${signal ?? `exit ${code}`}); starting another.`);
    fork();
  });
  // Each process stops in order (graceful-stop.mjs); one that has not by PARLEY_SHUTDOWN_MS is killed.
  for (const sig of ["SIGINT", "SIGTERM"]) {
    process.on(sig, () => {
      if (stopping) return;
      stopping = true;
      // To the process itself: worker.kill() would first wait for its connections to end (as next start did).
      for (const w of Object.values(cluster.workers ?? {})) w?.process.kill(sig);
      if (!Object.keys(cluster.workers ?? {}).length) process.exit(process.exitCode ?? 0);
      setTimeout(() => {
        for (const w of Object.values(cluster.workers ?? {})) w?.kill("SIGKILL");
        process.exit(1);
      }, shutdownMs()).unref();
    });
  }
  console.log(`[parley] starting ${count} server processes on one port`);
  fork();
}

/** Builds unless the build on disk is of this source (or there is no source); exits when the build fails. */
function buildWhenNeeded() {
  const dist = process.env.NEXT_DIST_DIR || ".next";
  let built = "";
  try {
    built = fs.readFileSync(path.join(dist, "BUILD_ID"), "utf8").trim();
  } catch {
    // no build yet
  }
  // Without the source (a copied build, as the benchmark runs it, or a deployment of the build alone), the build is what there is.
  if (built && !fs.existsSync("app")) return;
  if (built === sourceHash()) return;
  console.log(`[parley] ${built ? "the source changed since the last build" : "no build yet"}: building (next build, a minute or two)…`);
  const run = spawnSync(process.execPath, [NEXT, "build"], { stdio: "inherit" });
  if (run.status !== 0) {
    console.error("\nParley cannot start: the build failed (see above).\n");
    process.exit(run.status || 1);
  }
}

/** The port and host `next start` is given (`-p`/`--port`, `-H`/`--hostname`; PORT; all interfaces). */
function listenOn(argv = process.argv.slice(2)) {
  const flag = (short, long) => {
    const at = argv.findIndex((a) => a === short || a === long);
    return at >= 0 ? argv[at + 1] : argv.find((a) => a.startsWith(`${long}=`))?.slice(long.length + 1);
  };
  const host = flag("-H", "--hostname");
  const everywhere = !host || host === "0.0.0.0" || host === "::";
  const name = (h) => (h.includes(":") ? `[${h}]` : h);
  return {
    port: flag("-p", "--port") || process.env.PORT || "3000",
    shown: everywhere ? "localhost" : name(host),
    check: everywhere ? "127.0.0.1" : name(host),
  };
}

/** Prints where to open Parley (PARLEY_URL when set) once the server answers its health check. */
async function announceWhenReady() {
  const { port, shown, check } = listenOn();
  const url = process.env.PARLEY_URL?.trim().replace(/\/$/, "") || `http://${shown}:${port}`;
  for (let i = 0; i < 600; i++) {
    try {
      const res = await fetch(`http://${check}:${port}/api/health`, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return console.log(`\nParley is ready at ${url}\n`);
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}

requireNode();
const wanted = processCount();
if (wanted.error) {
  console.error(`\nParley cannot start: ${wanted.error}\n`);
  process.exit(1);
}
buildWhenNeeded();
void announceWhenReady();
if (wanted.count === 1) await runNextHere();
else runCluster(wanted.count);
