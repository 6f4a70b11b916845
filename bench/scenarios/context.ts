// What every scenario gets: the options, the upstream, the direct references, and the server under
// test with its database observer; and what a run of the scenarios on one server produces.
import type { Cpu } from "../harness/cpu";
import type { Server } from "../harness/parley";
import type { Relay } from "../harness/relay";
import type { Observer, PgDatabase, Writes } from "../harness/postgres";
import type { Upstream } from "../harness/upstream";
import type { BenchOptions, Db } from "../options";
import type { Summary } from "./stats";

/** The upstream alone: reference totals and bursts without Parley; and the same bursts through the bare relay. */
export interface Direct {
  /** p50 total of one fast stream: the reference of the one-stream phase. */
  reference: number;
  refSummary: Summary;
  paced: { reference: number; summary: Summary; deadline: number };
  bursts: Map<number, BurstFigures>;
  /** The bare AI SDK relay at each burst size, right after the upstream alone at that size. */
  relayBursts: Map<number, BurstFigures>;
}

export interface Ctx {
  o: BenchOptions;
  up: Upstream;
  direct: Direct;
  /** The bare AI SDK relay on the same upstream: the floor of CPU per chunk. */
  relay: Relay;
}

/** A server under test, open for one or more runs (compare mode runs it in several rounds). */
export interface Session {
  kind: Db;
  target: string;
  server: Server;
  pg?: PgDatabase;
  observer?: Observer;
}

export interface BurstFigures extends Summary {
  cpu: Cpu;
  /** The server (Parley, or the bare relay) was killed at the deadline (and restarted). */
  killed?: boolean;
}

export interface WritesRow extends Writes {
  phase: string;
  answers: number;
}

/** Halfway through a burst: characters the harness had shown, and those the database held. */
export interface StoredReading {
  n: number;
  atMs: number;
  shown: number;
  showing: number;
  stored: number;
  error?: string;
}

export interface StreamFigures {
  seq: Summary;
  directSeq: Summary;
  seqCpu: Cpu;
  directCpu: Cpu;
  /** The bare AI SDK relay, read in the same rounds (direct, relay, Parley). */
  relaySeq: Summary;
  relayCpu: Cpu;
  /** p50 of GET /api/chats: the floor of any signed-in request. */
  authFloor: number;
}

export interface LongChatFigures {
  messages: number;
  chars: number;
  /** newest page, chat page, turn to the model call, turn TTFT: a new chat against the long one. */
  rows: { what: string; fresh: number; long: number }[];
  /** The member's app with a few chats against with `chats` more (0: not run). */
  chats: number;
  manyRows: { what: string; fresh: number; long: number }[];
}

/** RSS of one moment: each process of the server's tree, in MB. */
export interface RssReading {
  label: string;
  turns: number;
  seconds: number;
  perProcess: number[];
}

/** The indexing scenario: one burst of paced chats alone and one beside the indexing of a large PDF. */
export interface IndexingFigures {
  chats: number;
  pages: number;
  pdfBytes: number;
  alone: Summary;
  beside: Summary;
  /** Upload answered (201) -> the document's status "ready", in ms; NaN when it did not get there. */
  indexMs: number;
  passages: number;
  /** The burst beside indexing: how long it ran, and how much of that indexing was still going on. */
  burstMs: number;
  overlapMs: number;
  status: string;
  error?: string;
}

export interface SoakFigures {
  readings: RssReading[];
  turns: number;
  failed: number;
  firstError?: string;
  /** Stopped at --soak-seconds before all turns ran. */
  timedOut: boolean;
}

/** One run of the selected scenarios on one server. */
export interface SuiteResult {
  kind: Db;
  target: string;
  skipped?: string;
  pgVersion?: string;
  processes: number;
  treeSize: number;
  restarts: number;
  stream?: StreamFigures;
  bursts: Map<number, BurstFigures>;
  stored: StoredReading[];
  writes: WritesRow[];
  longChat?: LongChatFigures;
  soak?: SoakFigures;
  indexing?: IndexingFigures;
  logProblems?: { count: number; first: string[] };
}
