// PostgreSQL for the bench: a throw-away database per server, its write counters (pg_stat_user_tables),
// the app's backends (for their CPU), the long chat's rows, and the answer text stored so far.
import crypto from "node:crypto";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { request } from "./http";
import { errorText, log, onCleanup, sleep } from "./lifecycle";

export interface PgDatabase {
  name: string;
  url: string;
  version: string;
}

function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return url;
  }
}

/** A new database on the server at `adminUrl`, dropped at clean-up; or why PostgreSQL is skipped. */
export async function createPgDatabase(adminUrl: string): Promise<PgDatabase | { skipped: string }> {
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch (err) {
    return { skipped: `PostgreSQL is not reachable at ${redact(adminUrl)} (${errorText(err)})` };
  }
  const name = `parley_bench_${crypto.randomBytes(5).toString("hex")}`;
  try {
    await admin.query(`CREATE DATABASE ${name}`);
    const version = (await admin.query<{ server_version: string }>("SHOW server_version")).rows[0].server_version;
    onCleanup(async () => {
      const c = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        log(`dropped database ${name}`);
      } finally {
        await c.end();
      }
    });
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    return { name, url: url.toString(), version };
  } finally {
    await admin.end();
  }
}

export interface Writes {
  messageIns: number;
  messageUpd: number;
  blockIns: number;
  blockUpd: number;
}

export const diffWrites = (a: Writes, b: Writes): Writes => ({
  messageIns: b.messageIns - a.messageIns,
  messageUpd: b.messageUpd - a.messageUpd,
  blockIns: b.blockIns - a.blockIns,
  blockUpd: b.blockUpd - a.blockUpd,
});

export type Observer = Awaited<ReturnType<typeof pgObserver>>;

/** One client on the bench database: write counters of Block and Message, stored answer text, and the app's backends. */
export async function pgObserver(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  onCleanup(() => client.end());
  return {
    async writes(): Promise<Writes> {
      try {
        await client.query("SELECT pg_stat_force_next_flush()");
      } catch {
        /* before PostgreSQL 15 */
      }
      await client.query("SELECT pg_stat_clear_snapshot()");
      const { rows } = await client.query<{ relname: string; ins: string; upd: string }>(
        `SELECT relname, n_tup_ins::bigint AS ins, n_tup_upd::bigint AS upd FROM pg_stat_user_tables WHERE relname IN ('Block', 'Message')`,
      );
      const out: Writes = { messageIns: 0, messageUpd: 0, blockIns: 0, blockUpd: 0 };
      for (const r of rows) {
        if (r.relname === "Message") Object.assign(out, { messageIns: Number(r.ins), messageUpd: Number(r.upd) });
        if (r.relname === "Block") Object.assign(out, { blockIns: Number(r.ins), blockUpd: Number(r.upd) });
      }
      return out;
    },
    async backendPids(): Promise<number[]> {
      const { rows } = await client.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()");
      return rows.map((r) => r.pid);
    },
    /**
     * Fills a chat with `n` earlier messages (question, answer, ...), each with one text block of
     * `chars` characters, each the reply to the one before (as the app stores them: parentId).
     */
    async seedChat(chatId: string, n: number, chars: number): Promise<void> {
      await client.query(
        `INSERT INTO "Message" ("id", "chatId", "role", "status", "updatedAt", "parentId")
           SELECT 'bench_' || $1 || '_' || g, $1, (CASE WHEN g % 2 = 1 THEN 'user' ELSE 'assistant' END)::"MessageRole", 'done', now(),
                  CASE WHEN g > 1 THEN 'bench_' || $1 || '_' || (g - 1) END
           FROM generate_series(1, $2::int) g ORDER BY g`,
        [chatId, n],
      );
      await client.query(
        `INSERT INTO "Block" ("id", "messageId", "ordinal", "kind", "status", "text", "updatedAt")
           SELECT m."id" || '_b0', m."id", 0, 'text', 'done', rpad('', $2::int, 'lorem ipsum '), now() FROM "Message" m WHERE m."chatId" = $1`,
        [chatId, chars],
      );
      await client.query(`ANALYZE "Message"; ANALYZE "Block"`);
    },
    /**
     * Gives the owner of `chatId` `n` more chats, older than it, each with a question and an answer
     * (one text block each), as a member who has chatted for a long time.
     */
    async seedChats(chatId: string, n: number): Promise<void> {
      await client.query(
        `INSERT INTO "Chat" ("id", "teamId", "userId", "title", "createdAt", "updatedAt")
           SELECT 'benchc_' || $1 || '_' || g, c."teamId", c."userId", 'Bench chat ' || g, now() - g * interval '1 minute', now() - g * interval '1 minute'
           FROM "Chat" c, generate_series(1, $2::int) g WHERE c."id" = $1`,
        [chatId, n],
      );
      await client.query(
        `INSERT INTO "Message" ("id", "chatId", "role", "status", "createdAt", "updatedAt", "parentId")
           SELECT c."id" || '_' || r, c."id", r::"MessageRole", 'done', c."createdAt", c."updatedAt",
                  CASE WHEN r = 'assistant' THEN c."id" || '_user' END
           FROM "Chat" c, unnest(ARRAY['user', 'assistant']) r WHERE c."id" LIKE 'benchc\_' || $1 || '\_%' ORDER BY c."id", r DESC`,
        [chatId],
      );
      await client.query(
        `INSERT INTO "Block" ("id", "messageId", "ordinal", "kind", "status", "text", "updatedAt")
           SELECT m."id" || '_b0', m."id", 0, 'text', 'done', rpad('', 200, 'lorem ipsum '), now()
           FROM "Message" m WHERE m."chatId" LIKE 'benchc\_' || $1 || '\_%'`,
        [chatId],
      );
      await client.query(`ANALYZE "Chat"; ANALYZE "Message"; ANALYZE "Block"`);
    },
    /** Characters of answer text committed so far in these chats (what a crash now would keep). */
    async storedChars(chatIds: string[]): Promise<number> {
      const { rows } = await client.query<{ chars: string }>(
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
export async function settledWrites(origin: string, headers: Record<string, string>, observer: Observer, expectMessageIns: number): Promise<Writes> {
  await sleep(1100);
  const t = performance.now();
  for (;;) {
    await Promise.all(Array.from({ length: 30 }, () => request("GET", `${origin}/api/chats`, { headers }).catch(() => undefined)));
    await sleep(250);
    const s = await observer.writes();
    if (s.messageIns >= expectMessageIns || performance.now() - t > 15_000) return s;
    await sleep(750);
  }
}
