// The search scenario: full-text search (lib/search/search.ts) over 10,000 chats and 200,000 messages,
// on a throw-away PGlite database and on PostgreSQL (when reachable), in this process: no server, the
// query itself is what is measured. The corpus is seeded in SQL (set-based, seconds): words drawn from
// a vocabulary with a long-tailed frequency (log-uniform ranks, close to natural text), every tenth
// message with a tool call whose input and output are searched too; one member owns most chats, a
// second owns a tenth of them and shares half of those with the first. Each query runs after a warm-up,
// `rounds` times; the report gives median and p95 against the aim (< 300 ms).
import { performance } from "node:perf_hooks";
import type { Db } from "../options";

export type SearchBenchRow = { db: Db; query: string; matches: number; p50: number; p95: number };
export type SearchBenchResult = { rows: SearchBenchRow[]; seedSeconds: Partial<Record<Db, number>>; skipped: string[]; chats: number; messages: number };

const CHATS = 10_000;
const MESSAGES = 200_000;
const VOCABULARY = 5_000;
const AIM_MS = 300;

/**
 * Queries of different selectivity: a common word, a middling one, a rare one, a phrase of common words,
 * a title word, an OR, and a word of every chat's title (found in no message).
 */
const QUERIES = ["w12", "w240", "w3100", '"w7 w8"', "topic42", "w900 OR w1800", "chat"];

const SEED = (chats: number, messages: number) => `
  SELECT setseed(0.42);
  INSERT INTO "user" ("id", "name", "email") VALUES ('bench-a', 'Bench A', 'bench-a@example.com'), ('bench-b', 'Bench B', 'bench-b@example.com');
  INSERT INTO "Team" ("id", "name", "updatedAt") VALUES ('bench-team', 'Bench', now());
  INSERT INTO "Membership" ("id", "teamId", "userId") VALUES ('bench-ma', 'bench-team', 'bench-a'), ('bench-mb', 'bench-team', 'bench-b');
  INSERT INTO "Chat" ("id", "teamId", "userId", "title", "createdAt", "updatedAt")
    SELECT 'bc' || g, 'bench-team', CASE WHEN g % 10 = 0 THEN 'bench-b' ELSE 'bench-a' END,
           'Chat on topic' || (g % 500), now() - g * interval '1 minute', now() - g * interval '1 minute'
      FROM generate_series(1, ${chats}) g;
  INSERT INTO "ChatShare" ("id", "chatId", "userId", "createdById")
    SELECT 'bs' || g, 'bc' || g, 'bench-a', 'bench-b' FROM generate_series(20, ${chats}, 20) g;
  INSERT INTO "Message" ("id", "chatId", "role", "createdAt", "updatedAt")
    SELECT 'bm' || g, 'bc' || (1 + g % ${chats}), (CASE WHEN g % 2 = 0 THEN 'user' ELSE 'assistant' END)::"MessageRole",
           now() - g * interval '1 second', now()
      FROM generate_series(1, ${messages}) g;
  INSERT INTO "Block" ("id", "messageId", "ordinal", "kind", "status", "text", "updatedAt")
    SELECT 'bb' || lpad((${messages} * 2 - g)::text, 8, '0'), 'bm' || g, 0, 'text', 'done',
           (SELECT string_agg('w' || floor(power(${VOCABULARY}, random()))::int, ' ') FROM generate_series(1, 12 + (g % 30)) i),
           now()
      FROM generate_series(1, ${messages}) g;
  INSERT INTO "Block" ("id", "messageId", "ordinal", "kind", "status", "toolCallId", "toolName", "input", "output", "updatedAt")
    SELECT 'bb' || lpad((${messages} * 2 - g)::text, 8, '0') || 't', 'bm' || g, 1, 'tool', 'output-available', 'call' || g, 'lookup',
           jsonb_build_object('query', 'w' || floor(power(${VOCABULARY}, random()))::int),
           jsonb_build_object('content', jsonb_build_array(jsonb_build_object('type', 'text', 'text', 'result w' || floor(power(${VOCABULARY}, random()))::int))),
           now()
      FROM generate_series(1, ${messages}, 10) g;
  ANALYZE;`;

async function seeded(kind: Db): Promise<{ stop: () => Promise<void>; seconds: number } | string> {
  const { DRIVERS, startTestApp } = await import("../../test/support/test-app");
  const { rawExec } = await import("./search-sql");
  const driver = DRIVERS.find((d) => d.kind === kind)!;
  let app: Awaited<ReturnType<typeof startTestApp>>;
  try {
    app = await startTestApp({ ...driver, skip: false });
  } catch (err) {
    return `${kind}: ${err instanceof Error ? err.message : String(err)}`;
  }
  const t = performance.now();
  await rawExec(SEED(CHATS, MESSAGES));
  return { stop: app.stop, seconds: Math.round((performance.now() - t) / 1000) };
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

export async function runSearchBench(dbs: Db[], pgUrl: string, rounds = 15, log: (s: string) => void = () => {}): Promise<SearchBenchResult> {
  // Read when test/support/test-databases.ts loads: set before the first import of it.
  if (dbs.includes("postgresql")) process.env.TEST_DATABASE_URL = pgUrl;
  const result: SearchBenchResult = { rows: [], seedSeconds: {}, skipped: [], chats: CHATS, messages: MESSAGES };
  const { searchChats } = await import("../../lib/search/search");
  const ctx = { user: { id: "bench-a", name: "Bench A", email: "bench-a@example.com" }, team: { id: "bench-team", name: "Bench", role: "member" as const } };
  for (const kind of dbs) {
    log(`search: seeding ${CHATS} chats / ${MESSAGES} messages on ${kind}…`);
    const s = await seeded(kind);
    if (typeof s === "string") {
      result.skipped.push(s);
      continue;
    }
    result.seedSeconds[kind] = s.seconds;
    try {
      for (const query of QUERIES) {
        const found = await searchChats(ctx, query); // warm-up
        const times: number[] = [];
        for (let i = 0; i < rounds; i++) {
          const t = performance.now();
          await searchChats(ctx, query);
          times.push(performance.now() - t);
        }
        result.rows.push({ db: kind, query, matches: found.length, p50: pct(times, 50), p95: pct(times, 95) });
      }
    } finally {
      await s.stop();
    }
  }
  return result;
}

export function searchText(r: SearchBenchResult): string {
  const lines = [`Search: ${r.chats.toLocaleString("en")} chats, ${r.messages.toLocaleString("en")} messages (lib/search; aim: p95 < ${AIM_MS} ms)`];
  lines.push("  db          query            chats found   p50 ms   p95 ms   aim");
  for (const row of r.rows) {
    lines.push(
      `  ${row.db.padEnd(11)} ${row.query.padEnd(16)} ${String(row.matches).padStart(11)} ${row.p50.toFixed(1).padStart(8)} ${row.p95.toFixed(1).padStart(8)}   ${row.p95 < AIM_MS ? "pass" : "MISS"}`,
    );
  }
  for (const [db, s] of Object.entries(r.seedSeconds)) lines.push(`  seeded ${db} in ${s} s`);
  for (const s of r.skipped) lines.push(`  skipped ${s}`);
  return lines.join("\n");
}
