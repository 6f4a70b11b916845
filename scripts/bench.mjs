// `npm run bench`: how much Parley's streaming pipeline adds on top of the model upstream.
//
// A scripted upstream (@copilotkit/aimock, in its own process) streams one long answer of ~2,000 SSE
// chunks at a fast fixed pace. The benchmark reads it directly (the baseline) and through Parley's
// POST /api/chat on the production build (`next start`), once on PGlite and once on PostgreSQL, and
// prints one report: time to first text chunk, total time, throughput (characters per second),
// server CPU per upstream chunk, database writes per answer, and bursts of 10/50/200 concurrent
// chats. The bursts stream at a model's pace (a shorter answer, ~50 tokens/s per chat): at the fast
// pace 200 chats would ask aimock for 100,000 chunks/s, more than it can produce on a small machine,
// so nothing could be said about Parley there. On PostgreSQL, each burst also compares, halfway
// through, the text the database holds with the text the harness had already shown.
//
// Parley merges text deltas that arrive together (one event-loop turn), so it may send fewer chunks
// than the upstream did with the same text: completeness and rates are therefore measured in
// characters, and CPU is divided by the upstream chunks that went through, not by chunks received.
// It is not a test: it exits 0 when it could run, whatever the figures, and non-zero only when it
// could not run.
//
// Environment (all optional):
//   BENCH_RUNS=8                  sequential streams per path (direct, and Parley per database)
//   BENCH_CONCURRENCY=10,50,200   concurrent chats per burst
//   BENCH_CHUNKS=2000             text chunks per answer, one stream at a time
//   BENCH_CHUNK_CHARS=4           characters per chunk (about one token), all phases
//   BENCH_CHUNK_MS=2              upstream pause between chunks, one stream at a time
//   BENCH_TTFT_MS=50              upstream pause before its first chunk, all phases
//   BENCH_CONC_CHUNKS=500         text chunks per answer in the concurrency bursts (direct and Parley)
//   BENCH_LONG_MESSAGES=2000      earlier messages in the long chat (PostgreSQL; 0 skips it)
//   BENCH_CONC_CHUNK_MS=20        upstream pause between chunks in the bursts (20 ms = 50 tokens/s, a
//                                 model's pace); the bursts get their own direct reference at this pace
//   BENCH_BEHIND_PCT=25           a stream fell behind when its total exceeds the direct p50 total (of its
//                                 pace) by more
//   BENCH_DEADLINE_FACTOR=1.5     a burst is cut at this many paced direct p50 totals: its unfinished streams are
//                                 behind by then anyway; the server is killed and restarted, so no turn
//                                 keeps running into the next phase (this keeps the run short)
//   BENCH_DBS=pglite,postgresql   which databases to run
//   BENCH_PG_URL=postgresql://postgres@127.0.0.1:5432/postgres   server for a throw-away database
//   BENCH_ACCEPT_ENCODING="gzip, deflate, br"  what the harness asks Parley for, like a browser (Next
//                                 compresses the event stream then); "identity" for no compression
//   BENCH_SKIP_BUILD=1            use the existing .next build even when sources look newer
//   BENCH_SERVER_NODE_ARGS        extra node arguments for the Parley server (e.g. --cpu-prof --cpu-prof-dir=DIR)
//   BENCH_PROCESSES=1             server processes on PostgreSQL (PARLEY_PROCESSES of scripts/start.mjs; more than
//                                 one shares live streams and rate limits through Redis at BENCH_REDIS_URL)
//   BENCH_REDIS_URL=redis://127.0.0.1:6379
import { execFileSync, execSync, spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const env = process.env;
const num = (v, d) => (v && Number.isFinite(Number(v)) && Number(v) > 0 ? Number(v) : d);

const CFG = {
  runs: Math.round(num(env.BENCH_RUNS, 8)),
  concurrency: (env.BENCH_CONCURRENCY ?? "10,50,200")
    .split(",")
    .map((s) => Number(s.trim()))
    .filter((n) => Number.isInteger(n) && n > 0),
  chunks: Math.round(num(env.BENCH_CHUNKS, 2000)),
  chunkChars: Math.round(num(env.BENCH_CHUNK_CHARS, 4)),
  chunkMs: num(env.BENCH_CHUNK_MS, 2),
  ttftMs: num(env.BENCH_TTFT_MS, 50),
  concChunks: Math.round(num(env.BENCH_CONC_CHUNKS, 500)),
  longMessages: env.BENCH_LONG_MESSAGES?.trim() === "0" ? 0 : Math.round(num(env.BENCH_LONG_MESSAGES, 2000)),
  concChunkMs: num(env.BENCH_CONC_CHUNK_MS, 20),
  pacedRefRuns: 3,
  behindPct: num(env.BENCH_BEHIND_PCT, 25),
  deadlineFactor: Math.max(1.3, num(env.BENCH_DEADLINE_FACTOR, 1.5)),
  dbs: (env.BENCH_DBS ?? "pglite,postgresql").split(",").map((s) => s.trim().toLowerCase()).filter(Boolean),
  pgUrl: env.BENCH_PG_URL || "postgresql://postgres@127.0.0.1:5432/postgres",
  acceptEncoding: env.BENCH_ACCEPT_ENCODING || "gzip, deflate, br",
  processes: Math.round(num(env.BENCH_PROCESSES, 1)),
  redisUrl: env.BENCH_REDIS_URL || "redis://127.0.0.1:6379",
  streamTimeoutMs: 180_000,
  warmup: 2,
};
/** Characters of text in each earlier message of the long chat. */
const LONG_CHAT_CHARS = 400;
const AIMS = { ttftAddedMs: 25, throughputRatio: 0.8, behindAt: 200 };
const MODEL = "bench-model";
const API_KEY = "sk-bench-not-a-real-key";
const RESERVED_PORTS = [3000, 3100, 3210, 4011];

// ---------------------------------------------------------------------------------------------
// Cleanup: whatever is started or created registers an undo step; they run once, newest first.

const undo = [];
const groups = new Set(); // process groups we started, killed synchronously if we exit abruptly
let cleaning;
function cleanup() {
  cleaning ??= (async () => {
    while (undo.length) {
      const step = undo.pop();
      try {
        await step();
      } catch (err) {
        log(`cleanup: ${err?.message ?? err}`);
      }
    }
  })();
  return cleaning;
}
for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(sig, () => {
    log(`${sig}: cleaning up`);
    cleanup().finally(() => process.exit(130));
  });
}
process.on("exit", () => {
  for (const pgid of groups) {
    try {
      process.kill(-pgid, "SIGKILL");
    } catch {
      /* already gone */
    }
  }
});

function log(msg) {
  process.stderr.write(`[bench] ${msg}\n`);
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------
// Statistics and formatting. Infinity stands for "not finished / never arrived before the cut".

function percentile(values, p) {
  const v = values.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  if (!v.length) return NaN;
  const idx = (v.length - 1) * p;
  const lo = Math.floor(idx);
  const hi = Math.ceil(idx);
  if (v[hi] === Infinity) return Infinity;
  return v[lo] + (v[hi] - v[lo]) * (idx - lo);
}
const fmt = (x, digits = 0) => (x === Infinity ? "cut" : Number.isFinite(x) ? x.toFixed(digits) : "-");
const signed = (x, digits = 1) => (Number.isFinite(x) ? `${x >= 0 ? "+" : ""}${x.toFixed(digits)}` : "-");
const pct = (x) => (Number.isFinite(x) ? `${(x * 100).toFixed(0)}%` : "-");

function table(headers, rows, align) {
  const cells = [headers, ...rows].map((r) => r.map((c) => String(c)));
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => r[i].length)));
  const line = (r) =>
    r
      .map((c, i) => ((align?.[i] ?? (i === 0 ? "l" : "r")) === "l" ? c.padEnd(widths[i]) : c.padStart(widths[i])))
      .join("  ")
      .trimEnd();
  return [line(cells[0]), widths.map((w) => "-".repeat(w)).join("  "), ...cells.slice(1).map(line)].join("\n");
}

// ---------------------------------------------------------------------------------------------
// CPU accounting from /proc (Linux)

let CLK_TCK = 100;
try {
  CLK_TCK = Number(execSync("getconf CLK_TCK", { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim()) || 100;
} catch {
  /* assume 100 */
}
const HAVE_PROC = fs.existsSync("/proc/self/stat");

function readStat(pid) {
  try {
    const s = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = s.slice(s.lastIndexOf(")") + 2).split(" ");
    return { ppid: Number(f[1]), user: Number(f[11]) + Number(f[13]), sys: Number(f[12]) + Number(f[14]) };
  } catch {
    return undefined;
  }
}

/** A process and all its live descendants. */
function processTree(rootPid) {
  const children = new Map();
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const st = readStat(name);
    if (!st) continue;
    if (!children.has(st.ppid)) children.set(st.ppid, []);
    children.get(st.ppid).push(Number(name));
  }
  const out = [];
  const stack = [rootPid];
  while (stack.length) {
    const pid = stack.pop();
    out.push(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return out;
}

/** CPU ms (user, kernel) of some processes: their own time plus that of children they have reaped. */
function cpuOf(pids) {
  let user = 0;
  let sys = 0;
  for (const pid of pids) {
    const st = readStat(pid);
    if (st) {
      user += st.user;
      sys += st.sys;
    }
  }
  return { user: (user * 1000) / CLK_TCK, sys: (sys * 1000) / CLK_TCK };
}

/** Whole-machine CPU time: busy (user, system, interrupts) and stolen by the hypervisor (steal), in ms. */
function machineCpuMs() {
  if (!HAVE_PROC) return { busy: NaN, steal: NaN };
  const f = fs.readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1).map(Number);
  const total = f.slice(0, 8).reduce((a, b) => a + b, 0);
  return { busy: ((total - f[3] - f[4] - f[7]) * 1000) / CLK_TCK, steal: (f[7] * 1000) / CLK_TCK };
}

/** CPU counters at one moment: the server's process tree, its PostgreSQL backends, the harness, the machine. */
async function snapshot(server) {
  const machine = machineCpuMs();
  const s = { at: performance.now(), machine: machine.busy, steal: machine.steal, harness: NaN, server: { user: NaN, sys: NaN }, db: new Map() };
  if (HAVE_PROC) {
    const self = process.cpuUsage();
    const mock = cpuOf(processTree(upstream.pid));
    s.harness = mock.user + mock.sys + (self.user + self.system) / 1000;
    if (server) s.server = cpuOf(processTree(server.pid));
    if (server?.backendPids) for (const pid of await server.backendPids()) {
      const c = cpuOf([pid]);
      s.db.set(pid, c.user + c.sys);
    }
  }
  return s;
}
/** Raw CPU deltas between two snapshots; phases made of several windows add them up. */
function cpuBetween(a, b) {
  let db = 0;
  for (const [pid, ms] of b.db) db += ms - (a.db.get(pid) ?? 0);
  return {
    wallMs: b.at - a.at,
    serverMs: b.server.user + b.server.sys - (a.server.user + a.server.sys),
    serverSysMs: b.server.sys - a.server.sys,
    dbMs: b.db.size ? db : NaN,
    harnessMs: b.harness - a.harness,
    machineMs: b.machine - a.machine,
    stealMs: b.steal - a.steal,
  };
}
function sumCpu(list) {
  const keys = ["wallMs", "serverMs", "serverSysMs", "dbMs", "harnessMs", "machineMs", "stealMs"];
  return Object.fromEntries(keys.map((k) => [k, list.reduce((acc, c) => acc + c[k], 0)]));
}
/** Whole-machine busy time not accounted for by the server, its database backends and the harness, in cores. */
function otherCores(c) {
  const known = [c.serverMs, c.dbMs, c.harnessMs].filter(Number.isFinite).reduce((a, b) => a + b, 0);
  return Math.max(0, (c.machineMs - known) / c.wallMs);
}
/** CPU time the hypervisor gave to other guests while this machine wanted it, in cores. */
const stolenCores = (c) => c.stealMs / c.wallMs;

// ---------------------------------------------------------------------------------------------
// Processes and ports

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}
async function freePortAvoiding() {
  for (;;) {
    const p = await freePort();
    if (!RESERVED_PORTS.includes(p)) return p;
  }
}

/** Starts a process in its own process group (so it and its children can be stopped together). */
function spawnGroup(args, opts) {
  const child = spawn(process.execPath, args, { ...opts, detached: true });
  groups.add(child.pid);
  child.once("exit", () => groups.delete(child.pid));
  return child;
}

/** Stops a process group: SIGTERM, then SIGKILL after a grace period. */
async function killGroup(child, graceMs = 5000) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  try {
    process.kill(-child.pid, "SIGTERM");
  } catch {
    return;
  }
  const t = setTimeout(() => {
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      /* gone */
    }
  }, graceMs);
  await exited;
  clearTimeout(t);
}

/** Kills a process group at once (a server that is hopelessly behind; nothing to shut down cleanly). */
async function killNow(child) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {
    return;
  }
  await exited;
}

// ---------------------------------------------------------------------------------------------
// HTTP: one keep-alive agent; an SSE reader that timestamps text chunks

const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity, maxFreeSockets: 1024 });

function request(method, url, { body, headers = {}, timeoutMs = 30_000 } = {}) {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const payload = body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body);
    const req = http.request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname + u.search,
        method,
        agent,
        headers: { ...(payload !== undefined ? { "content-type": "application/json", "content-length": Buffer.byteLength(payload) } : {}), ...headers },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (d) => (text += d));
        res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, text }));
        res.on("error", reject);
      },
    );
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`${method} ${u.pathname}: no answer in ${timeoutMs} ms`)));
    req.on("error", reject);
    req.end(payload);
  });
}

/**
 * POSTs and reads an SSE answer. `textOf(event)` returns the text of a text chunk (else undefined) and
 * throws to report an error event. Times are from just before the request is sent. `signal` cuts
 * the stream (the result then has `cut: true`); `onHeaders` runs when the response starts;
 * `progress` (shared by a burst's streams) counts the characters received and the streams that had text, for readings mid-burst;
 * `fresh` sends it on a connection of its own (with several server processes, the next process in turn).
 */
function streamSse(url, payload, headers, textOf, { signal, onHeaders, progress, fresh } = {}) {
  return new Promise((resolve) => {
    const u = new URL(url);
    const body = JSON.stringify(payload);
    const r = { status: 0, ttft: NaN, total: NaN, firstAt: NaN, lastAt: NaN, chunks: 0, chars: 0, firstChars: 0, sentEpoch: 0, cut: false, error: undefined };
    let done = false;
    let t0 = 0;
    const finish = (error) => {
      if (done) return;
      done = true;
      r.total = performance.now() - t0;
      if (error && !r.error) r.error = error;
      clearTimeout(timer);
      resolve(r);
    };
    const req = http.request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        method: "POST",
        agent: fresh ? false : agent,
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body), accept: "text/event-stream", ...headers },
      },
      (res) => {
        r.status = res.statusCode;
        r.encoding = res.headers["content-encoding"] ?? "identity";
        onHeaders?.(res.statusCode);
        const decode = { gzip: zlib.createGunzip, deflate: zlib.createInflate, br: zlib.createBrotliDecompress }[r.encoding];
        const src = decode ? res.pipe(decode()) : res;
        if (decode) src.on("error", (e) => finish(r.cut ? undefined : e.message));
        src.setEncoding("utf8");
        let buf = "";
        if (res.statusCode !== 200) {
          src.on("data", (d) => (buf += d));
          src.on("end", () => finish(`HTTP ${res.statusCode}: ${buf.slice(0, 300)}`));
          res.on("error", (e) => finish(e.message));
          return;
        }
        src.on("data", (d) => {
          buf += d;
          let i;
          while ((i = buf.indexOf("\n\n")) >= 0) {
            const event = buf.slice(0, i);
            buf = buf.slice(i + 2);
            for (const line of event.split("\n")) {
              if (!line.startsWith("data:")) continue;
              const data = line.slice(5).trimStart();
              if (data === "[DONE]") continue;
              let text;
              try {
                text = textOf(JSON.parse(data));
              } catch (err) {
                r.error ??= String(err?.message ?? err).slice(0, 300);
                continue;
              }
              if (text) {
                const now = performance.now();
                if (!r.chunks) {
                  r.firstAt = now;
                  r.ttft = now - t0;
                  r.firstChars = text.length;
                  if (progress) progress.streams++;
                }
                r.lastAt = now;
                r.chunks++;
                r.chars += text.length;
                if (progress) progress.chars += text.length;
              }
            }
          }
        });
        src.on("end", () => finish());
        res.on("error", (e) => finish(r.cut ? undefined : e.message));
        res.on("aborted", () => finish(r.cut ? undefined : "connection aborted"));
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      finish(`no end after ${CFG.streamTimeoutMs} ms`);
    }, CFG.streamTimeoutMs);
    signal?.addEventListener(
      "abort",
      () => {
        r.cut = true;
        req.destroy();
        finish();
      },
      { once: true },
    );
    req.on("error", (e) => finish(r.cut ? undefined : e.message));
    t0 = performance.now();
    r.sentEpoch = Date.now();
    req.end(body);
  });
}

/**
 * Characters per second between a stream's first and last text chunk (the first chunk's characters
 * arrived at the start of that span, so they do not count). Characters, not chunks: Parley may merge
 * deltas that arrive together into one chunk, which changes the count but not the text.
 */
const rateOf = (r) => (r.chunks > 1 && r.lastAt > r.firstAt ? ((r.chars - r.firstChars) * 1000) / (r.lastAt - r.firstAt) : NaN);

/** Upstream chunks a stream's text came in (estimated from its characters; aimock cuts the answer into equal chunks). */
const upstreamChunksOf = (r) => Math.round(r.chars / CFG.chunkChars);

// ---------------------------------------------------------------------------------------------
// The upstream: aimock in a child process, so its work does not share the harness's event loop

function benchText(chars) {
  const words = (
    "the stream of a long answer moves through the model provider into the server where every chunk is parsed " +
    "checked stored and forwarded to the browser as quickly as it arrives so that a reader sees the words appear " +
    "steadily while the database keeps a copy that survives a restart and a second tab can resume the same answer"
  ).split(" ");
  let out = "";
  let n = 0;
  while (out.length < chars) {
    out += words[n % words.length];
    n++;
    out += n % 97 === 0 ? "\n\n" : n % 13 === 0 ? ". " : " ";
  }
  return out.slice(0, chars);
}

let upstream;

/** Prompts (last user message) containing this word get the paced answer; every prompt starts with "bench". */
const PACED = "paced";

async function startUpstream() {
  const content = benchText(CFG.chunks * CFG.chunkChars);
  const pacedContent = benchText(CFG.concChunks * CFG.chunkChars);
  // aimock serves the first registered fixture that matches (substring of the last user message), and
  // every prompt contains "bench": so the paced fixture must be registered first.
  const code = `
    import { LLMock } from "@copilotkit/aimock";
    const cfg = JSON.parse(process.env.BENCH_MOCK);
    const mock = new LLMock({ port: 0, host: "127.0.0.1", chunkSize: cfg.chunkChars, logLevel: "silent", journalMaxEntries: 0 });
    mock.onMessage(cfg.paced, { content: cfg.pacedContent }, { streamingProfile: { ttft: cfg.ttftMs, tps: 1000 / cfg.concChunkMs } });
    mock.onMessage("bench", { content: cfg.content }, { streamingProfile: { ttft: cfg.ttftMs, tps: 1000 / cfg.chunkMs } });
    await mock.start();
    process.stdout.write(JSON.stringify({ url: mock.url }) + "\\n");
    const stop = () => mock.stop().finally(() => process.exit(0));
    process.on("SIGTERM", stop);
    process.on("SIGINT", stop);
  `;
  const child = spawnGroup(["--input-type=module", "-e", code], {
    cwd: ROOT,
    env: {
      ...env,
      BENCH_MOCK: JSON.stringify({ content, pacedContent, paced: PACED, chunkChars: CFG.chunkChars, ttftMs: CFG.ttftMs, chunkMs: CFG.chunkMs, concChunkMs: CFG.concChunkMs }),
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  undo.push(() => killGroup(child));
  const url = await new Promise((resolve, reject) => {
    let out = "";
    const t = setTimeout(() => reject(new Error("aimock did not start in 15 s")), 15_000);
    child.stdout.on("data", (d) => {
      out += d;
      const line = out.split("\n").find((l) => l.startsWith("{"));
      if (line) {
        clearTimeout(t);
        resolve(JSON.parse(line).url);
      }
    });
    child.once("exit", (code) => reject(new Error(`aimock exited (${code}) before it started`)));
  });
  child.stdout.resume();
  return {
    url: url.replace(/\/+$/, ""),
    pid: child.pid,
    expectedChunks: Math.ceil(content.length / CFG.chunkChars),
    expectedChars: content.length,
    pacedChunks: Math.ceil(pacedContent.length / CFG.chunkChars),
    pacedChars: pacedContent.length,
    seen: 0,
  };
}

/** When the upstream received each request, by the text of its last user message (from aimock's journal). */
async function upstreamArrivals() {
  const res = await request("GET", `${upstream.url}/__aimock/journal?offset=${upstream.seen}`, { timeoutMs: 60_000 });
  const entries = JSON.parse(res.text);
  upstream.seen += entries.length;
  const out = new Map();
  for (const e of entries) {
    const messages = e.body?.messages;
    if (!Array.isArray(messages)) continue;
    const user = messages.filter((m) => m.role === "user").at(-1);
    const text = typeof user?.content === "string" ? user.content : Array.isArray(user?.content) ? user.content.map((p) => p.text ?? "").join("") : "";
    out.set(text.trim(), e.timestamp);
  }
  return out;
}

/** Milliseconds from sending each request until the upstream received the model call. */
function attachArrivals(results, labels, arrivals) {
  results.forEach((r, i) => {
    const at = arrivals.get(`bench ${labels[i]}`);
    r.toUpstream = at !== undefined && r.sentEpoch ? at - r.sentEpoch : NaN;
  });
}

function directStream(label, opts) {
  return streamSse(
    `${upstream.url}/v1/chat/completions`,
    { model: MODEL, messages: [{ role: "user", content: `bench ${label}` }], stream: true, stream_options: { include_usage: true } },
    { authorization: `Bearer ${API_KEY}` },
    (ev) => {
      if (ev.error) throw new Error(ev.error.message ?? "upstream error");
      const c = ev.choices?.[0]?.delta?.content;
      return typeof c === "string" && c.length ? c : undefined;
    },
    opts,
  );
}

// ---------------------------------------------------------------------------------------------
// Parley: build, start, first-run setup, chats, turns, stop

function sourcesNewestMtime() {
  let newest = 0;
  const skip = new Set(["node_modules", ".next", "data", "test-results", ".tmp", ".git", "e2e"]);
  const walk = (p) => {
    let st;
    try {
      st = fs.statSync(p);
    } catch {
      return;
    }
    if (st.isDirectory()) {
      if (skip.has(path.basename(p))) return;
      for (const name of fs.readdirSync(p)) walk(path.join(p, name));
    } else if (!/\.test\.(ts|tsx|mjs)$/.test(p)) {
      newest = Math.max(newest, st.mtimeMs);
    }
  };
  for (const p of ["app", "lib", "components", "public", "prisma", "next.config.ts", "instrumentation.ts", "package.json", "tsconfig.json", "postcss.config.mjs"]) {
    walk(path.join(ROOT, p));
  }
  return newest;
}

async function ensureBuild() {
  const idFile = path.join(ROOT, ".next", "BUILD_ID");
  const built = fs.existsSync(idFile) ? fs.statSync(idFile).mtimeMs : 0;
  if (built && (env.BENCH_SKIP_BUILD === "1" || built >= sourcesNewestMtime())) {
    log("using the existing production build (.next)");
    return "existing";
  }
  log(built ? "sources are newer than .next: building (next build)" : "no production build: building (next build)");
  for (let attempt = 1; attempt <= 3; attempt++) {
    const t = performance.now();
    try {
      execFileSync(process.execPath, ["node_modules/next/dist/bin/next", "build"], {
        cwd: ROOT,
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...env, NEXT_TELEMETRY_DISABLED: "1" },
        maxBuffer: 64 * 1024 * 1024,
      });
      const secs = (performance.now() - t) / 1000;
      log(`built in ${secs.toFixed(1)} s`);
      return `built in ${secs.toFixed(0)} s`;
    } catch (err) {
      const out = `${err.stdout ?? ""}${err.stderr ?? ""}`.split("\n").slice(-15).join("\n");
      log(`next build failed (attempt ${attempt}/3; another build may be running):\n${out}`);
      if (attempt < 3) await sleep(10_000);
    }
  }
  throw new Error("next build failed three times");
}

/** Warnings and errors the server logged (the log itself is removed with the temp directory). */
function logProblems(file) {
  let lines = [];
  try {
    lines = fs.readFileSync(file, "utf8").split("\n");
  } catch {
    return { count: 0, first: [] };
  }
  const bad = lines.filter((l) => /error|warn|\[turn\]|\[block-writer\]|\[db\]|unhandled|exception/i.test(l));
  return { count: bad.length, first: bad.slice(0, 3).map((l) => l.slice(0, 240)) };
}

let appDir; // a private copy of the build, so another engineer's `next build` cannot pull it away mid-run

/**
 * Copies the production build (without its cache) and what `next start` reads at run time into a
 * temporary directory; node_modules is linked. Waits while a `next build` holds .next/lock.
 */
async function snapshotBuild() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "parley-bench-app-"));
  undo.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  const src = path.join(ROOT, ".next");
  const lock = path.join(src, "lock");
  const idFile = path.join(src, "BUILD_ID");
  const readId = () => (fs.existsSync(idFile) ? fs.readFileSync(idFile, "utf8") : undefined);
  for (let attempt = 0; attempt < 60; attempt++) {
    const id = readId();
    if (!id || fs.existsSync(lock)) {
      if (attempt === 0) log("waiting for a running next build to finish (.next/lock)");
      await sleep(2000);
      continue;
    }
    fs.rmSync(path.join(dir, ".next"), { recursive: true, force: true });
    fs.cpSync(src, path.join(dir, ".next"), {
      recursive: true,
      verbatimSymlinks: true,
      filter: (p) => p !== lock && p !== path.join(src, "cache") && !p.startsWith(path.join(src, "cache") + path.sep),
    });
    if (readId() !== id || fs.existsSync(lock)) continue; // a build started while copying
    for (const f of ["package.json", "next.config.ts", "tsconfig.json"]) {
      if (fs.existsSync(path.join(ROOT, f))) fs.copyFileSync(path.join(ROOT, f), path.join(dir, f));
    }
    fs.cpSync(path.join(ROOT, "prisma"), path.join(dir, "prisma"), { recursive: true });
    fs.mkdirSync(path.join(dir, "scripts"));
    fs.copyFileSync(path.join(ROOT, "scripts/start.mjs"), path.join(dir, "scripts/start.mjs"));
    if (fs.existsSync(path.join(ROOT, "public"))) fs.cpSync(path.join(ROOT, "public"), path.join(dir, "public"), { recursive: true });
    fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"), "dir");
    return dir;
  }
  throw new Error("no complete production build in .next (a build kept running, or failed)");
}

function tail(file, lines = 25) {
  try {
    return fs.readFileSync(file, "utf8").split("\n").slice(-lines).join("\n");
  } catch {
    return "(no log)";
  }
}

async function startParley({ kind, databaseUrl }) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `parley-bench-${kind}-`));
  undo.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  const dataDir = path.join(dir, "data");
  fs.mkdirSync(dataDir);
  const port = await freePortAvoiding();
  const env2 = { ...env };
  for (const k of ["DATABASE_URL", "REDIS_URL", "PARLEY_URL", "BETTER_AUTH_URL", "PARLEY_SECRET_KEY", "BETTER_AUTH_SECRET", "PORT", "HOSTNAME", "NODE_OPTIONS"]) {
    delete env2[k];
  }
  Object.assign(env2, {
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    PARLEY_DATA_DIR: dataDir,
    OPENAI_BASE_URL: `${upstream.url}/v1`,
    OPENAI_API_KEY: API_KEY,
    PARLEY_DEFAULT_MODEL: MODEL,
    PARLEY_PROVIDER_KIND: "chat",
    PARLEY_CHAT_RATE_LIMIT: "1000000",
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    // PGlite belongs to one process; several need PostgreSQL and Redis.
    ...(databaseUrl && CFG.processes > 1 ? { PARLEY_PROCESSES: String(CFG.processes), REDIS_URL: CFG.redisUrl } : {}),
  });
  const server = { kind, port, origin: `http://127.0.0.1:${port}`, env: env2, logFile: path.join(dir, "server.log"), restarts: 0 };
  await launch(server);
  return server;
}

/** Starts (or restarts, on the same port, data and database) the server and waits until it is healthy. */
async function launch(server) {
  const nodeArgs = (env.BENCH_SERVER_NODE_ARGS ?? "").split(/\s+/).filter(Boolean);
  const fd = fs.openSync(server.logFile, "a");
  const child = spawnGroup([...nodeArgs, path.join(appDir, "scripts/start.mjs"), "-p", String(server.port), "-H", "127.0.0.1"], {
    cwd: appDir,
    env: server.env,
    stdio: ["ignore", fd, fd],
  });
  fs.closeSync(fd);
  undo.push(() => killGroup(child));
  server.child = child;
  server.pid = child.pid;
  const t = performance.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the ${server.kind} server exited (${child.exitCode}):\n${tail(server.logFile)}`);
    try {
      const res = await request("GET", `${server.origin}/api/health`, { timeoutMs: 5000 });
      if (res.status === 200) break;
    } catch {
      /* not up yet */
    }
    if (performance.now() - t > 90_000) throw new Error(`the ${server.kind} server did not become healthy in 90 s:\n${tail(server.logFile)}`);
    await sleep(200);
  }
  server.startMs = performance.now() - t;
}

/** After a restart: one turn, stopped soon after it starts, so the next phase does not pay for loading code. */
async function warmUp(server) {
  const [id] = await createChats(server, 1);
  const r = await parleyStream(server, id, `${server.kind} rewarm`, { onHeaders: () => sleep(300).then(() => stopTurn(server, id)) });
  if (r.error) throw new Error(`${server.kind}: a warm-up turn after the restart failed: ${r.error}\n${tail(server.logFile)}`);
}

/** First-run setup in a real browser (the /setup form), then the session cookies for plain HTTP. */
async function setupAdmin(server) {
  const { chromium } = await import("@playwright/test");
  const executablePath = env.PLAYWRIGHT_CHROMIUM_EXECUTABLE || (fs.existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined);
  const browser = await chromium.launch({
    executablePath,
    args: ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
  try {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.origin}/setup`, { timeout: 60_000 });
    await page.getByLabel("Your name").fill("Bench Admin");
    await page.getByLabel("Email").fill("bench@example.com");
    await page.getByLabel("Password").fill("a long enough bench password");
    await page.getByLabel("Team name").fill("Bench Team");
    await page.getByRole("button", { name: "Create admin and team" }).click();
    await page.waitForURL(/\/chat$/, { timeout: 60_000 });
    const cookies = await context.cookies(server.origin);
    if (!cookies.length) throw new Error("setup finished without a session cookie");
    server.cookie = cookies.map((c) => `${c.name}=${c.value}`).join("; ");
  } finally {
    await browser.close();
  }
}

const authHeaders = (server) => ({ cookie: server.cookie, origin: server.origin });

async function createChats(server, n) {
  const ids = [];
  for (let i = 0; i < n; i += 20) {
    const res = await Promise.all(
      Array.from({ length: Math.min(20, n - i) }, () => request("POST", `${server.origin}/api/chats`, { headers: authHeaders(server), body: "{}" })),
    );
    for (const r of res) {
      if (r.status !== 201 && r.status !== 200) throw new Error(`POST /api/chats: HTTP ${r.status} ${r.text.slice(0, 200)}`);
      ids.push(JSON.parse(r.text).id);
    }
  }
  return ids;
}

function parleyStream(server, chatId, label, opts) {
  return streamSse(
    `${server.origin}/api/chat`,
    { id: chatId, message: { role: "user", parts: [{ type: "text", text: `bench ${label}` }] } },
    { ...authHeaders(server), "accept-encoding": CFG.acceptEncoding },
    (ev) => {
      if (ev.type === "text-delta") return ev.delta;
      if (ev.type === "error") throw new Error(`error chunk: ${ev.errorText}`);
      if (ev.type === "data-error") throw new Error(`data-error: ${ev.data?.code}: ${ev.data?.message}`);
      return undefined;
    },
    opts,
  );
}

const stopTurn = (server, chatId) =>
  request("POST", `${server.origin}/api/chat/${chatId}/stop`, { headers: authHeaders(server), body: "{}", timeoutMs: 60_000 }).catch(() => {});

// ---------------------------------------------------------------------------------------------
// PostgreSQL: a throw-away database, its write counters and its backends

async function pgModule() {
  return (await import("pg")).default;
}

function redact(url) {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return url;
  }
}

async function createPgDatabase() {
  const pg = await pgModule();
  const admin = new pg.Client({ connectionString: CFG.pgUrl, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch (err) {
    return { skipped: `PostgreSQL is not reachable at ${redact(CFG.pgUrl)} (${err.message})` };
  }
  const name = `parley_bench_${crypto.randomBytes(5).toString("hex")}`;
  try {
    await admin.query(`CREATE DATABASE ${name}`);
    const version = (await admin.query("SHOW server_version")).rows[0].server_version;
    undo.push(async () => {
      const c = new pg.Client({ connectionString: CFG.pgUrl, connectionTimeoutMillis: 3000 });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        log(`dropped database ${name}`);
      } finally {
        await c.end();
      }
    });
    const url = new URL(CFG.pgUrl);
    url.pathname = `/${name}`;
    return { name, url: url.toString(), version };
  } finally {
    await admin.end();
  }
}

/** One client on the bench database: write counters of Block and Message, stored answer text, and the app's backends. */
async function pgObserver(url) {
  const pg = await pgModule();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  undo.push(() => client.end());
  return {
    async writes() {
      try {
        await client.query("SELECT pg_stat_force_next_flush()");
      } catch {
        /* before PostgreSQL 15 */
      }
      await client.query("SELECT pg_stat_clear_snapshot()");
      const { rows } = await client.query(
        `SELECT relname, n_tup_ins::bigint AS ins, n_tup_upd::bigint AS upd FROM pg_stat_user_tables WHERE relname IN ('Block', 'Message')`,
      );
      const out = { messageIns: 0, messageUpd: 0, blockIns: 0, blockUpd: 0 };
      for (const r of rows) {
        if (r.relname === "Message") Object.assign(out, { messageIns: Number(r.ins), messageUpd: Number(r.upd) });
        if (r.relname === "Block") Object.assign(out, { blockIns: Number(r.ins), blockUpd: Number(r.upd) });
      }
      return out;
    },
    async backendPids() {
      const { rows } = await client.query("SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()");
      return rows.map((r) => r.pid);
    },
    /** Fills a chat with `n` earlier messages (question, answer, ...), each with one text block of `chars` characters. */
    async seedChat(chatId, n, chars) {
      await client.query(
        `INSERT INTO "Message" ("id", "chatId", "role", "status", "updatedAt")
           SELECT 'bench_' || $1 || '_' || g, $1, (CASE WHEN g % 2 = 1 THEN 'user' ELSE 'assistant' END)::"MessageRole", 'done', now()
           FROM generate_series(1, $2::int) g ORDER BY g`,
        [chatId, n],
      );
      await client.query(
        `INSERT INTO "Block" ("id", "messageId", "ordinal", "kind", "status", "text", "updatedAt")
           SELECT m."id" || '_b0', m."id", 0, 'text', 'done', rpad('', $2::int, 'lorem ipsum '), now() FROM "Message" m WHERE m."chatId" = $1`,
        [chatId, chars],
      );
    },
    /** Characters of answer text committed so far in these chats (what a crash now would keep). */
    async storedChars(chatIds) {
      const { rows } = await client.query(
        `SELECT coalesce(sum(length(b."text")), 0)::bigint AS chars FROM "Block" b JOIN "Message" m ON m."id" = b."messageId"
          WHERE m."chatId" = ANY($1::text[]) AND m."role" = 'assistant' AND b."kind" = 'text'`,
        [chatIds],
      );
      return Number(rows[0].chars);
    },
  };
}

/**
 * Write counters once a phase's writes are all reported. A backend reports its statistics at most
 * once a second, and an idle one only after ~10 s; so wait a second, have every pooled connection of
 * the app run a statement (which makes it report), and poll until each answer's two Message rows
 * (question and answer) are counted.
 */
async function settledWrites(server, observer, expectMessageIns) {
  await sleep(1100);
  const t = performance.now();
  for (;;) {
    await Promise.all(Array.from({ length: 30 }, () => request("GET", `${server.origin}/api/chats`, { headers: authHeaders(server) }).catch(() => {})));
    await sleep(250);
    const s = await observer.writes();
    if (s.messageIns >= expectMessageIns || performance.now() - t > 15_000) return s;
    await sleep(750);
  }
}

const diffWrites = (a, b) => ({
  messageIns: b.messageIns - a.messageIns,
  messageUpd: b.messageUpd - a.messageUpd,
  blockIns: b.blockIns - a.blockIns,
  blockUpd: b.blockUpd - a.blockUpd,
});

// ---------------------------------------------------------------------------------------------
// Phases

/**
 * Figures of a set of streams. A stream is complete when all the answer's characters arrived
 * (`expectedChars`: the fast answer, or the paced one in the bursts); its chunk count is only
 * informative, as Parley may merge deltas.
 */
function summarize(results, reference, expectedChars = upstream.expectedChars) {
  const expected = expectedChars;
  const valid = results.filter((r) => !r.error);
  const limit = reference * (1 + CFG.behindPct / 100);
  const ttfts = valid.map((r) => (r.chunks ? r.ttft : Infinity));
  const totals = valid.map((r) => (r.cut ? Infinity : r.total));
  return {
    n: results.length,
    ttft50: percentile(ttfts, 0.5),
    ttft95: percentile(ttfts, 0.95),
    total50: percentile(totals, 0.5),
    total95: percentile(totals, 0.95),
    totalMax: percentile(totals, 1),
    rate50: percentile(valid.map(rateOf), 0.5),
    toUpstream50: percentile(results.map((r) => r.toUpstream ?? NaN), 0.5),
    toUpstream95: percentile(results.map((r) => r.toUpstream ?? NaN), 0.95),
    chunks: results.reduce((a, r) => a + r.chunks, 0),
    chars: results.reduce((a, r) => a + r.chars, 0),
    upChunks: results.reduce((a, r) => a + upstreamChunksOf(r), 0),
    short: results.filter((r) => !r.error && r.chars < expected).length,
    cut: results.filter((r) => r.cut).length,
    errors: results.filter((r) => r.error).length,
    // Refused at capacity (PARLEY_MAX_ACTIVE_TURNS): 503 with Retry-After, counted among the failed.
    busy: results.filter((r) => r.status === 503).length,
    firstError: results.find((r) => r.error)?.error,
    encodings: [...new Set(results.map((r) => r.encoding).filter(Boolean))].join(", "),
    behind: Number.isFinite(reference) ? results.filter((r) => r.error || r.cut || r.chars < expected || r.total > limit).length : NaN,
  };
}

async function sequential(labels, once) {
  const results = [];
  for (let i = 0; i < labels.length; i++) results.push(await once(i, labels[i]));
  return results;
}

/**
 * Starts n streams together. At the deadline, `atDeadline` runs (the caller takes its measurements),
 * the unfinished streams are cut on the client side, then `afterCut` runs (the caller may kill the server).
 */
async function burst(n, deadlineMs, start, { atDeadline, afterCut } = {}) {
  const done = new Array(n).fill(false);
  const aborts = Array.from({ length: n }, () => new AbortController());
  const all = Promise.all(
    Array.from({ length: n }, (_, i) =>
      start(i, { signal: aborts[i].signal }).then((r) => {
        done[i] = true;
        return r;
      }),
    ),
  );
  const first = await Promise.race([all, sleep(deadlineMs).then(() => "deadline")]);
  let cut = false;
  if (first === "deadline" && done.some((d) => !d)) {
    cut = true;
    await atDeadline?.();
    aborts.forEach((a, i) => !done[i] && a.abort());
    await afterCut?.();
  }
  return { results: await all, cut };
}

let direct;

/**
 * Upstream alone: the reference totals (fast, for the one-stream phases; paced, for "behind" and the
 * deadline of the bursts), and bursts without Parley at the paced profile.
 */
async function runDirect() {
  const refRuns = Math.max(3, Math.ceil(CFG.runs / 2));
  log(`direct: warm-up, then ${refRuns} sequential streams for the reference`);
  await sequential(["direct warmup 0", "direct warmup 1"].slice(0, CFG.warmup), (_, label) => directStream(label));
  await upstreamArrivals();
  const labels = Array.from({ length: refRuns }, (_, i) => `direct ref ${i}`);
  const seq = await sequential(labels, (_, label) => directStream(label));
  const out = { conc: new Map() };
  out.reference = summarize(seq, NaN).total50;
  out.refSummary = summarize(seq, out.reference);
  log(
    `direct: p50 TTFT ${fmt(out.refSummary.ttft50, 1)} ms, total ${fmt(out.reference)} ms, ` +
      `${out.refSummary.chars / refRuns} chars in ${out.refSummary.chunks / refRuns} chunks per stream`,
  );
  if (out.refSummary.errors || out.refSummary.short) throw new Error(`the direct baseline is broken: ${out.refSummary.firstError ?? "short streams"}`);

  // The bursts run at a model's pace, so they need a reference of their own at that pace.
  log(`direct: ${CFG.pacedRefRuns} sequential paced streams for the bursts' reference`);
  const pacedSeq = await sequential(
    Array.from({ length: CFG.pacedRefRuns }, (_, i) => `direct ${PACED} ref ${i}`),
    (_, label) => directStream(label),
  );
  const pacedRef = summarize(pacedSeq, NaN, upstream.pacedChars).total50;
  out.paced = { reference: pacedRef, summary: summarize(pacedSeq, pacedRef, upstream.pacedChars), deadline: pacedRef * CFG.deadlineFactor };
  log(`direct paced: p50 TTFT ${fmt(out.paced.summary.ttft50, 1)} ms, total ${fmt(pacedRef)} ms, ${out.paced.summary.chars / CFG.pacedRefRuns} chars per stream`);
  if (out.paced.summary.errors || out.paced.summary.short) {
    throw new Error(`the paced direct baseline is broken: ${out.paced.summary.firstError ?? "short streams"}`);
  }
  await upstreamArrivals();

  for (const n of CFG.concurrency) {
    log(`direct: ${n} concurrent paced streams`);
    const labelsN = Array.from({ length: n }, (_, i) => `direct ${PACED} c${n}-${i}`);
    const b = await snapshot();
    let e;
    const { results: res } = await burst(n, out.paced.deadline, (i, opts) => directStream(labelsN[i], opts), {
      atDeadline: async () => (e = await snapshot()),
    });
    const cpuN = cpuBetween(b, e ?? (await snapshot()));
    attachArrivals(res, labelsN, await upstreamArrivals());
    out.conc.set(n, { ...summarize(res, out.paced.reference, upstream.pacedChars), cpu: cpuN });
    await sleep(500);
  }
  return out;
}

/**
 * A chat with a long history (PostgreSQL only: its rows are written straight into the database): the
 * newest page of messages, the server-rendered chat page, and a turn in it (the whole history is read
 * and sent to the model), each against the same request in a new chat.
 */
async function longChat(server, observer) {
  const [long, fresh] = await createChats(server, 2);
  log(`long chat: ${CFG.longMessages} messages`);
  await observer.seedChat(long, CFG.longMessages, LONG_CHAT_CHARS);
  const timed = async (n, fn) => {
    const ms = [];
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      const r = await fn(i);
      if (r.status && r.status !== 200) throw new Error(`long chat: HTTP ${r.status} ${String(r.text ?? r.error ?? "").slice(0, 200)}`);
      if (r.error) throw new Error(`long chat: a turn failed: ${r.error}`);
      ms.push(r.ttft ?? performance.now() - t);
    }
    return percentile(ms, 0.5);
  };
  const get = (url) => () => request("GET", `${server.origin}${url}`, { headers: authHeaders(server), timeoutMs: 60_000 });
  const rows = [];
  for (const [what, path] of [
    ["newest page of messages (GET /api/chat/[id]/messages)", (id) => `/api/chat/${id}/messages`],
    ["chat page, server-rendered (GET /chat/[id])", (id) => `/chat/${id}`],
  ]) {
    rows.push({ what, fresh: await timed(10, get(path(fresh))), long: await timed(10, get(path(long))) });
  }
  // Turns: each adds a question and an answer, so both chats keep their size within a few messages.
  rows.push({
    what: "turn: time to first chunk",
    fresh: await timed(3, (i) => sleep(300).then(() => parleyStream(server, fresh, `long fresh ${i}`))), // the last turn finishes storing
    long: await timed(3, (i) => sleep(300).then(() => parleyStream(server, long, `long ${i}`))),
  });
  return { messages: CFG.longMessages, rows };
}

async function runSuite(kind) {
  let pgdb;
  if (kind === "postgresql") {
    pgdb = await createPgDatabase();
    if (pgdb.skipped) {
      log(`postgresql: skipped: ${pgdb.skipped}`);
      return { kind, skipped: pgdb.skipped };
    }
  }
  log(`${kind}: starting next start`);
  const server = await startParley({ kind, databaseUrl: pgdb?.url });
  log(`${kind}: healthy after ${(server.startMs / 1000).toFixed(1)} s (pid ${server.pid}); first-run setup in Chromium`);
  await setupAdmin(server);
  const observer = pgdb ? await pgObserver(pgdb.url) : undefined;
  if (observer) server.backendPids = () => observer.backendPids();
  const suite = { kind, server, pg: pgdb, conc: new Map(), writes: [], stored: [] };

  log(`${kind}: warm-up`);
  // Every server process warms up: the cluster hands out connections in turn and a keep-alive
  // connection stays with its process, so each warm-up turn has a connection of its own.
  const processes = server.env.PARLEY_PROCESSES ? CFG.processes : 1;
  for (const id of await createChats(server, CFG.warmup * processes)) {
    const r = await parleyStream(server, id, `${kind} warmup`, { fresh: true });
    if (r.error) throw new Error(`${kind}: a warm-up turn failed: ${r.error}\n${tail(server.logFile)}`);
  }
  // The floor of any signed-in request: session, memberships, one small query.
  const floor = [];
  for (let i = 0; i < 10; i++) {
    const t = performance.now();
    await request("GET", `${server.origin}/api/chats`, { headers: authHeaders(server) });
    floor.push(performance.now() - t);
  }
  suite.authFloor = percentile(floor, 0.5);

  // One stream at a time, alternating direct and Parley runs so both see the same machine load.
  // Each Parley run gets a new chat created beforehand (only the turn is measured).
  const seqChats = await createChats(server, CFG.runs);
  let before = observer ? await settledWrites(server, observer, 0) : undefined;
  await upstreamArrivals();
  log(`${kind}: ${CFG.runs} sequential streams, each after a direct one`);
  const labels = seqChats.map((_, i) => `${kind} seq ${i}`);
  const directLabels = seqChats.map((_, i) => `${kind} direct ${i}`);
  const seq = [];
  const directSeq = [];
  const parleyCpu = [];
  const directCpu = [];
  for (let i = 0; i < seqChats.length; i++) {
    let a = await snapshot(server);
    directSeq.push(await directStream(directLabels[i]));
    let b = await snapshot(server);
    directCpu.push(cpuBetween(a, b));
    await sleep(200); // the upstream settles
    a = await snapshot(server);
    seq.push(await parleyStream(server, seqChats[i], labels[i]));
    await sleep(200); // the turn finishes storing
    b = await snapshot(server);
    parleyCpu.push(cpuBetween(a, b));
  }
  const arrivals = await upstreamArrivals();
  attachArrivals(seq, labels, arrivals);
  attachArrivals(directSeq, directLabels, arrivals);
  suite.seqCpu = sumCpu(parleyCpu);
  suite.directCpu = sumCpu(directCpu);
  suite.directSeq = summarize(directSeq, direct.reference);
  suite.seq = summarize(seq, direct.reference);
  suite.treeSize = processTree(server.pid).length;
  if (observer) {
    const after = await settledWrites(server, observer, before.messageIns + 2 * seq.length);
    suite.writes.push({ phase: "sequential", answers: seq.length, ...diffWrites(before, after) });
  }

  if (observer && CFG.longMessages > 0) suite.longChat = await longChat(server, observer);

  for (const n of CFG.concurrency) {
    const ids = await createChats(server, n);
    if (observer) before = await settledWrites(server, observer, 0);
    else await sleep(500);
    log(`${kind}: ${n} concurrent paced chats`);
    const labelsN = ids.map((_, i) => `${kind} ${PACED} c${n}-${i}`);
    const progress = { chars: 0, streams: 0 };
    const a = await snapshot(server);
    // Halfway through a direct paced stream (well before the deadline) every answer is mid-stream:
    // compare what the harness (the browsers) had shown with what the database holds.
    const midMs = direct.paced.reference / 2;
    const mid = observer
      ? sleep(midMs).then(async () => {
          // Read as the query is sent, so both figures describe the same moment.
          const at = { n, atMs: midMs, shown: progress.chars, showing: progress.streams };
          try {
            return { ...at, stored: await observer.storedChars(ids) };
          } catch (err) {
            return { ...at, stored: NaN, error: String(err?.message ?? err) };
          }
        })
      : undefined;
    let e;
    const { results: res, cut } = await burst(
      n,
      direct.paced.deadline,
      (i, opts) => parleyStream(server, ids[i], labelsN[i], { ...opts, progress }),
      {
        atDeadline: async () => (e = await snapshot(server)),
        afterCut: () => killNow(server.child), // nothing may keep running into the next phase
      },
    );
    if (mid) suite.stored.push(await mid);
    if (!cut) {
      await sleep(500); // the last turns finish storing
      e = await snapshot(server);
    }
    const cpu = cpuBetween(a, e);
    attachArrivals(res, labelsN, await upstreamArrivals());
    suite.conc.set(n, { ...summarize(res, direct.paced.reference, upstream.pacedChars), cpu, killed: cut });
    if (cut) {
      log(`${kind}: ${n} concurrent: cut at the deadline, server killed; restarting it`);
      server.restarts++;
      await launch(server);
    }
    if (observer) {
      const started = res.filter((r) => r.status === 200).length;
      const after = await settledWrites(server, observer, before.messageIns + 2 * started);
      suite.writes.push({ phase: `${n} concurrent, paced${cut ? " (cut)" : ""}`, answers: n, ...diffWrites(before, after) });
    }
    if (cut) await warmUp(server);
  }

  log(`${kind}: stopping the server`);
  await killGroup(server.child);
  suite.treeSize ??= 1;
  suite.logProblems = logProblems(server.logFile);
  return suite;
}

// ---------------------------------------------------------------------------------------------
// Report

const LABEL = { pglite: "Parley PGlite", postgresql: "Parley PostgreSQL" };

function report(suites, buildNote) {
  const out = [];
  const p = (s = "") => out.push(s);
  // Per-chunk figures only where enough upstream chunks went through to mean something. Divided by
  // upstream chunks, not received ones: Parley may merge deltas, which would inflate a per-received-chunk figure.
  const perChunk = (ms, chunks) => (chunks >= 1000 && Number.isFinite(ms) ? (ms * 1000) / chunks : NaN);
  const ran = suites.filter((s) => !s.skipped);
  const pgSuite = ran.find((s) => s.kind === "postgresql");
  const ms = (x, d = 0) => (x === Infinity ? `>${fmt(direct.paced.deadline)}` : fmt(x, d));
  const perSec = (everyMs) => fmt(1000 / everyMs);

  p("Parley streaming benchmark");
  p("==========================");
  p(
    `Upstream: aimock in its own process, Chat Completions SSE, chunks of ${CFG.chunkChars} chars (about a token), the first after ${CFG.ttftMs} ms.`,
  );
  p(
    `  One stream at a time (sections 1, 2): ${upstream.expectedChunks} chunks (${upstream.expectedChars} chars), one every ${CFG.chunkMs} ms ` +
      `(${perSec(CFG.chunkMs)} chunks/s), to measure throughput and CPU.`,
  );
  p(
    `  Concurrency bursts (sections 2-5): ${upstream.pacedChunks} chunks (${upstream.pacedChars} chars), one every ${CFG.concChunkMs} ms ` +
      `(${perSec(CFG.concChunkMs)} chunks/s per chat, a model's pace).`,
  );
  p(
    `Runs: ${CFG.runs} sequential streams per path after ${CFG.warmup} warm-up turns per server process, direct and Parley alternating; bursts of ` +
      `${CFG.concurrency.join(", ")} concurrent chats. Build: ${buildNote}. ` +
      `Server processes: ${CFG.processes > 1 ? `${CFG.processes} on PostgreSQL (PARLEY_PROCESSES, Redis), 1 on PGlite` : "1"}.`,
  );
  p(`Machine: ${os.cpus().length} CPUs, Node ${process.version}, CLK_TCK ${CLK_TCK}${pgSuite ? `, PostgreSQL ${pgSuite.pg.version}` : ""}.`);
  const enc = [...new Set(ran.map((s) => s.seq.encodings))].join(", ");
  p(`The harness sends Accept-Encoding: ${CFG.acceptEncoding}; Parley answered with Content-Encoding: ${enc || "-"}.`);
  p("TTFT = request sent -> first text chunk read; total = request sent -> response ended; chars/s = characters between the first and");
  p("the last text chunk; to upstream = request sent -> aimock received the model call (aimock's journal, 1 ms resolution).");
  p("Parley merges text deltas that arrive together, so it may send fewer chunks than aimock did with the same text: a stream is");
  p("complete when all the answer's characters arrived (short = fewer), and the chunk counts are for information.");
  for (const s of suites) if (s.skipped) p(`NOTE: ${LABEL[s.kind]} was skipped: ${s.skipped}`);
  const measured = ran.flatMap((s) => [s.seqCpu, ...[...s.conc.values()].map((c) => c.cpu)]);
  /** The mean of `cores` over the measured phases (NaN when none could be read). */
  const meanCores = (cores) => {
    const values = measured.map(cores).filter(Number.isFinite);
    return values.length ? values.reduce((a, b) => a + b, 0) / values.length : NaN;
  };
  const otherLoad = meanCores(otherCores);
  const stolen = meanCores(stolenCores);
  if (stolen > 0.1) {
    p(`WARNING: the hypervisor took ~${stolen.toFixed(2)} cores from this machine (steal) during the measured phases: every process ran`);
    p("slower than on a quiet machine, so absolute times are inflated; compare them with runs that show little steal.");
  }
  if (otherLoad > 0.25) {
    p(`WARNING: other programs kept ~${otherLoad.toFixed(2)} of ${os.cpus().length} cores busy during the measured phases; absolute figures are`);
    p("inflated by that, comparisons less so (direct and Parley runs alternate).");
  }

  p();
  p(`1. One stream at a time (${CFG.runs} runs each; ms)`);
  const seqRow = (label, s) => [
    label,
    fmt(s.ttft50, 1),
    fmt(s.ttft95, 1),
    fmt(s.toUpstream50, 0),
    fmt(s.total50),
    fmt(s.total95),
    fmt(s.rate50),
    `${s.chars}`,
    `${s.chunks}`,
    `${s.short + s.errors}`,
  ];
  const rows1 = [];
  for (const s of ran) rows1.push(seqRow(`direct (alternating with ${s.kind})`, s.directSeq), seqRow(LABEL[s.kind], s.seq));
  p(table(["path", "TTFT p50", "TTFT p95", "to upstream p50", "total p50", "total p95", "chars/s p50", "chars", "chunks received", "short/failed"], rows1));
  p();
  p(
    table(
      ["added by Parley", "TTFT p50", "TTFT p95", "before upstream call p50", "rest of TTFT p50", "total p50", "total p95", "chars/s vs direct", "signed-in GET p50"],
      ran.map((s) => {
        const d = s.directSeq;
        const pre = s.seq.toUpstream50 - d.toUpstream50;
        const added = s.seq.ttft50 - d.ttft50;
        return [
          LABEL[s.kind],
          `${signed(added)} ms`,
          `${signed(s.seq.ttft95 - d.ttft95)} ms`,
          `${signed(pre, 0)} ms`,
          `${signed(added - pre, 0)} ms`,
          `${signed(s.seq.total50 - d.total50, 0)} ms`,
          `${signed(s.seq.total95 - d.total95, 0)} ms`,
          pct(s.seq.rate50 / d.rate50),
          `${fmt(s.authFloor, 1)} ms`,
        ];
      }),
    ),
  );
  p("  Before upstream call = sign-in check, chat and model lookups, storing the question and an empty answer, loading the history.");
  p("  Signed-in GET = GET /api/chats, the floor of any signed-in request (session, user, memberships, one list query).");
  for (const s of ran) if (s.seq.firstError) p(`  ${LABEL[s.kind]}: first error: ${s.seq.firstError}`);

  p();
  p(`2. CPU per upstream text chunk (server = the npm start process tree: ${ran.map((s) => `${s.treeSize} process(es)`).join(", ") || "-"})`);
  const cpuRows = [];
  const cpuRow = (label, phase, c, sum) => [
    label,
    phase,
    `${sum.upChunks}`,
    `${sum.chunks}`,
    fmt(c.serverMs),
    fmt(perChunk(c.serverMs, sum.upChunks), 0),
    Number.isFinite(c.serverMs) && c.serverMs > 0 ? pct(c.serverSysMs / c.serverMs) : "-",
    pct(c.serverMs / c.wallMs),
    fmt(perChunk(c.dbMs, sum.upChunks), 0),
    fmt(perChunk(c.harnessMs, sum.upChunks), 0),
    fmt(otherCores(c), 2),
    fmt(stolenCores(c), 2),
  ];
  for (const s of ran) cpuRows.push(cpuRow(`direct (with ${s.kind})`, "sequential", s.directCpu, s.directSeq));
  for (const [n, c] of direct.conc) cpuRows.push(cpuRow("direct", `${n} concurrent, paced`, c.cpu, c));
  for (const s of ran) {
    cpuRows.push(cpuRow(LABEL[s.kind], "sequential", s.seqCpu, s.seq));
    for (const [n, c] of s.conc) cpuRows.push(cpuRow(LABEL[s.kind], `${n} concurrent, paced`, c.cpu, c));
  }
  p(
    table(
      [
        "path",
        "phase",
        "upstream chunks",
        "chunks received",
        "server CPU ms",
        "server us/upstream chunk",
        "kernel share",
        "server busy (1 core = 100%)",
        "PG backends us/upstream chunk",
        "aimock+harness us/upstream chunk",
        "other load (cores)",
        "stolen (cores)",
      ],
      cpuRows,
    ),
  );
  p("  Server = utime+stime from /proc; PGlite's database work runs inside the server process, PostgreSQL's in its backends (own column).");
  p(`  Upstream chunks = the chunks aimock sent whose text arrived (characters received / ${CFG.chunkChars}, rounded); every per-chunk`);
  p("  figure is divided by them, not by the chunks received, which Parley may merge.");
  p("  Other load = machine busy time not accounted for by the columns before it (other programs on this machine), in cores.");
  p("  Stolen = CPU time the hypervisor gave to other guests while this machine was runnable (/proc/stat steal), in cores.");
  p("  Per-chunk figures are left out (-) where fewer than 1,000 upstream chunks went through; burst CPU includes starting every turn.");

  p();
  p("3. Database writes per answer (PostgreSQL, pg_stat_user_tables n_tup_ins + n_tup_upd; counts the question's rows too)");
  if (!pgSuite) {
    p("  (no PostgreSQL run)");
  } else {
    const rows = pgSuite.writes.map((w) => {
      const per = (x) => fmt(x / w.answers, 1);
      return [w.phase, `${w.answers}`, per(w.messageIns), per(w.messageUpd), per(w.blockIns), per(w.blockUpd), per(w.messageIns + w.messageUpd + w.blockIns + w.blockUpd)];
    });
    const tot = pgSuite.writes.reduce(
      (a, w) => ({ answers: a.answers + w.answers, mi: a.mi + w.messageIns, mu: a.mu + w.messageUpd, bi: a.bi + w.blockIns, bu: a.bu + w.blockUpd }),
      { answers: 0, mi: 0, mu: 0, bi: 0, bu: 0 },
    );
    if (tot.answers) {
      const per = (x) => fmt(x / tot.answers, 1);
      rows.push(["all measured", `${tot.answers}`, per(tot.mi), per(tot.mu), per(tot.bi), per(tot.bu), per(tot.mi + tot.mu + tot.bi + tot.bu)]);
    }
    p(table(["phase", "answers", "Message ins", "Message upd", "Block ins", "Block upd", "writes/answer"], rows));
    p("  (cut): the server was killed at the burst's deadline, so these count what was written while streaming, before the cut,");
    p("  which is what a crash at that moment would leave.");
  }

  p();
  p(
    `4. Concurrent chats at the paced profile (each its own chat, all requests sent at once; ms). Behind = total more than ${CFG.behindPct}% ` +
      `over the direct paced one-stream p50 total (${fmt(direct.paced.reference)} ms, ${CFG.pacedRefRuns} runs), short, or failed.`,
  );
  p(`   Streams still running at ${fmt(direct.paced.deadline)} ms (${CFG.deadlineFactor}x that total) are cut there ("cut"; the Parley server is killed`);
  p("   then and restarted for the next phase, so no turn runs on into it). Cut streams count as behind; their totals show as >deadline.");
  const concRows = [];
  for (const n of CFG.concurrency) {
    const d = direct.conc.get(n);
    const row = (label, s) => [
      label,
      `${n}`,
      ms(s.ttft50, 1),
      ms(s.ttft95, 1),
      ms(s.toUpstream50),
      ms(s.toUpstream95),
      ms(s.total50),
      ms(s.total95),
      fmt(s.rate50),
      d && s !== d ? pct(s.rate50 / d.rate50) : "",
      pct(s.rate50 / direct.paced.summary.rate50),
      `${s.behind}/${s.n}`,
      `${s.cut}`,
      `${s.errors}${s.busy ? ` (${s.busy} busy)` : ""}`,
    ];
    if (d) concRows.push(row("direct", d));
    for (const s of ran) {
      const c = s.conc.get(n);
      if (c) concRows.push(row(LABEL[s.kind], c));
    }
  }
  p(
    table(
      ["path", "chats", "TTFT p50", "TTFT p95", "to upstream p50", "to upstream p95", "total p50", "total p95", "chars/s p50", "vs direct same N", "vs direct 1 stream", "behind", "cut", "failed"],
      concRows,
    ),
  );
  const aggRows = [];
  for (const n of CFG.concurrency) {
    const d = direct.conc.get(n);
    if (d) aggRows.push(`direct ${n}: ${fmt((d.chars * 1000) / d.cpu.wallMs)}/s`);
    for (const s of ran) {
      const c = s.conc.get(n);
      if (c) aggRows.push(`${s.kind} ${n}: ${fmt((c.chars * 1000) / c.cpu.wallMs)}/s`);
    }
  }
  p(`  Characters delivered per second, all streams together: ${aggRows.join(", ")}.`);
  for (const s of ran) for (const [n, c] of s.conc) if (c.firstError) p(`  ${LABEL[s.kind]} at ${n}: first error: ${c.firstError}`);
  for (const [n, c] of direct.conc) if (c.firstError) p(`  direct at ${n}: first error: ${c.firstError}`);
  const directBehind = [...direct.conc].filter(([, c]) => c.behind > 0).map(([n, c]) => `${c.behind}/${n} at ${n}`);
  if (directBehind.length) p(`  Without Parley, aimock and the harness alone already fall behind: ${directBehind.join(", ")}.`);
  for (const s of ran) {
    if (s.logProblems?.count) p(`  ${LABEL[s.kind]} server log: ${s.logProblems.count} warning/error line(s), first: ${s.logProblems.first.join(" | ")}`);
  }

  p();
  p(`5. Stored vs shown mid-burst (PostgreSQL): what a crash at that moment would keep`);
  if (!pgSuite) {
    p("  (no PostgreSQL run)");
  } else {
    // The gap as time: how much of one chat's stream (at the paced rate) is shown but not yet stored,
    // over the chats that were showing text (a slow start must not dilute it).
    const charsPerMs = CFG.chunkChars / CFG.concChunkMs;
    p(
      table(
        ["burst", "at ms", "chats showing text", "shown chars", "stored chars", "stored/shown", "not stored, ms of text per chat"],
        pgSuite.stored.map((m) => [
          `${m.n} concurrent`,
          fmt(m.atMs),
          `${m.showing}/${m.n}`,
          `${m.shown}`,
          fmt(m.stored),
          m.shown > 0 ? pct(m.stored / m.shown) : "-",
          m.showing ? fmt((m.shown - m.stored) / m.showing / charsPerMs) : "-",
        ]),
      ),
    );
    p("  At half the paced direct total, the characters the harness (the browsers) had received across the burst's answers, and the");
    p("  characters of answer text committed in PostgreSQL for those chats. Parley writes a growing text block at most once per 150 ms,");
    p("  so a healthy server leaves at most ~150 ms of text per chat unstored (~95%+ halfway through the default 10 s answer; less");
    p("  with shorter answers); more means the writes lag behind the stream.");
    for (const m of pgSuite.stored) if (m.error) p(`  ${m.n} concurrent: the query failed: ${m.error}`);
  }

  p();
  const lc = pgSuite?.longChat;
  p(`6. A long chat (PostgreSQL): ${lc ? `${lc.messages} earlier messages of ${LONG_CHAT_CHARS} characters` : "not run"}; p50 ms`);
  if (lc) {
    p(table(["request", "new chat", "long chat", "added"], lc.rows.map((r) => [r.what, fmt(r.fresh, 1), fmt(r.long, 1), `${signed(r.long - r.fresh)} ms`])));
    p("  The page and the chat page read only the newest 50 messages; a turn reads and sends the newest messages that fit the");
    p(`  model's context window (the default 128,000 tokens: ~288 KB of the ~${Math.round((lc.messages * LONG_CHAT_CHARS) / 1000)} KB here), so its added time grows`);
    p("  with the chat up to that size.");
  }

  p();
  p("Aims");
  const aimRows = [];
  for (const s of ran) {
    const added = s.seq.ttft50 - s.directSeq.ttft50;
    aimRows.push([`TTFT added at p50 <= ${AIMS.ttftAddedMs} ms`, LABEL[s.kind], `${signed(added)} ms`, added <= AIMS.ttftAddedMs ? "PASS" : "MISS"]);
  }
  for (const s of ran) {
    const ratio = s.seq.rate50 / s.directSeq.rate50;
    aimRows.push([`throughput (chars/s) >= ${pct(AIMS.throughputRatio)} of direct (one stream)`, LABEL[s.kind], pct(ratio), ratio >= AIMS.throughputRatio ? "PASS" : "MISS"]);
  }
  const pgAt = pgSuite?.conc.get(AIMS.behindAt);
  aimRows.push([
    `no stream behind at ${AIMS.behindAt} concurrent chats on PostgreSQL (paced: ${upstream.pacedChunks} chunks, one every ${CFG.concChunkMs} ms)`,
    LABEL.postgresql,
    pgAt ? `${pgAt.behind}/${pgAt.n} behind` : "not run",
    pgAt ? (pgAt.behind === 0 ? "PASS" : "MISS") : "n/a",
  ]);
  p(table(["aim", "server", "measured", "result"], aimRows, ["l", "l", "r", "l"]));
  return out.join("\n");
}

// ---------------------------------------------------------------------------------------------
// Main

async function main() {
  const t = performance.now();
  if (!CFG.concurrency.length) throw new Error("BENCH_CONCURRENCY has no positive integers");
  for (const kind of CFG.dbs) if (kind !== "pglite" && kind !== "postgresql") throw new Error(`BENCH_DBS: unknown database "${kind}"`);
  const buildNote = await ensureBuild();
  appDir = await snapshotBuild();
  upstream = await startUpstream();
  log(`aimock at ${upstream.url} (pid ${upstream.pid}), ${upstream.expectedChunks} chunks per answer, ${upstream.pacedChunks} in the paced bursts`);
  direct = await runDirect();
  const suites = [];
  for (const kind of CFG.dbs) suites.push(await runSuite(kind));
  const text = report(suites, buildNote);
  await cleanup();
  process.stdout.write(`\n${text}\n\nBenchmark time ${((performance.now() - t) / 1000).toFixed(0)} s.\n`);
}

main().then(
  () => process.exit(0),
  async (err) => {
    log(`could not run: ${err?.stack ?? err}`);
    await cleanup();
    process.exit(1);
  },
);
