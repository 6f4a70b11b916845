// Full-text search over the chats a member may see (their own, and those shared with them: the rule of
// lib/sharing/access.ts, written here in SQL): chat titles, and every block's text, tool input and tool
// output. PostgreSQL's full-text search on both drivers (PGlite is PostgreSQL): `websearch_to_tsquery`
// (quotes, OR, -word) against the stored, generated `searchVector` columns of Block and Chat and their
// GIN indexes (prisma/migrations/…_search_vectors), and `ts_headline` for the highlighted snippet.
// The 'simple' configuration: no stemming, but no language assumed either (a team writes in any).
// One result per chat, newest match first. Matching blocks are read newest first (block ids are cuids,
// which sort by creation time) in small batches that skip the chats already found, and the walk stops
// once the page is full: a word in a quarter of all messages reads a few hundred rows, not all of them
// (newestBlockHits: how words and phrases are read). A block's first 250,000 characters are searched.
// Snippets are made afterwards for the rows shown only, and come back as segments (no HTML is built
// from chat text).
import { z } from "zod";
import { db } from "../db/client";
import { Invalid } from "../errors";
import type { TeamContext } from "../teams/team-context";

export const searchQuerySchema = z.object({
  q: z
    .string()
    .trim()
    .min(1, "Enter something to search for.")
    .max(200, "At most 200 characters.")
    .regex(/^[^\u0000]*$/, "The search has a character that is not allowed."),
});

export type SnippetPart = { text: string; hit: boolean };
export type SearchResult = { chatId: string; title: string | null; owner: string; mine: boolean; messageId: string | null; snippet: SnippetPart[]; at: string };

/** Most chats a search returns. */
const MAX_CHATS = 30;
/** Marks of a hit in ts_headline's output: private-use characters, which no chat text holds in practice. */
const START = "\uE000";
const STOP = "\uE001";
/** The searched document of a block: the expression of its generated column, word for word. */
const BLOCK_DOC = `left(coalesce(b."text", '') || ' ' || coalesce(b."input"::text, '') || ' ' || coalesce(b."output"::text, ''), 250000)`;
/** The query; `numnode(…) > 0` makes a query without words (only signs, say) match nothing at plan time. */
const QUERY = `websearch_to_tsquery('simple', $1)`;
const HAS_WORDS = `numnode(${QUERY}) > 0`;
/** The chats of team $2 that user $3 may see (lib/sharing/access.ts visibleChats). */
const VISIBLE = `c."teamId" = $2 AND (c."userId" = $3
  OR EXISTS (SELECT 1 FROM "ChatShare" s WHERE s."chatId" = c."id" AND (s."userId" = $3 OR s."userId" IS NULL))
  OR EXISTS (SELECT 1 FROM "Project" p WHERE p."id" = c."projectId" AND p."shared" AND p."teamId" = c."teamId"))`;
const HEADLINE = `'StartSel=${START}, StopSel=${STOP}, MaxWords=24, MinWords=8, MaxFragments=2, FragmentDelimiter=" … "'`;

type Hit = { chatId: string; blockId: string | null; messageId: string | null; at: Date };
type Shown = { chatId: string; title: string | null; owner: string; ownerId: string; snippet: string | null };

export async function searchChats(ctx: Pick<TeamContext, "user" | "team">, rawQuery: string): Promise<SearchResult[]> {
  const parsed = searchQuerySchema.safeParse({ q: rawQuery });
  if (!parsed.success) throw Invalid(parsed.error.issues[0]?.message ?? "Invalid search.");
  const q = parsed.data.q;
  const prisma = await db();
  const [blocks, titles] = await Promise.all([
    newestBlockHits(q, ctx),
    prisma.$queryRawUnsafe<Hit[]>(
      `SELECT c."id" AS "chatId", NULL AS "blockId", NULL AS "messageId", c."updatedAt" AS at
         FROM "Chat" c
        WHERE ${HAS_WORDS} AND c."searchVector" @@ ${QUERY} AND ${VISIBLE}
        ORDER BY c."updatedAt" DESC
        LIMIT ${MAX_CHATS}`,
      q,
      ctx.team.id,
      ctx.user.id,
    ),
  ]);
  // A chat whose content matches shows that snippet; one that matches by title alone, its title.
  const byChat = new Map<string, Hit>();
  for (const h of blocks) byChat.set(h.chatId, h);
  for (const h of titles) if (!byChat.has(h.chatId)) byChat.set(h.chatId, h);
  const page = [...byChat.values()].sort((a, b) => new Date(b.at).getTime() - new Date(a.at).getTime()).slice(0, MAX_CHATS);
  if (page.length === 0) return [];
  // Titles, owners and snippets of the page's rows only ('' for "no block": the title's snippet).
  const shown = await prisma.$queryRawUnsafe<Shown[]>(
    `SELECT c."id" AS "chatId", c."title", u."name" AS owner, c."userId" AS "ownerId",
            CASE WHEN b."id" IS NULL THEN ts_headline('simple', coalesce(c."title", ''), ${QUERY}, ${HEADLINE})
                 ELSE ts_headline('simple', ${BLOCK_DOC}, ${QUERY}, ${HEADLINE}) END AS snippet
       FROM unnest($2::text[], $3::text[]) AS h("chatId", "blockId")
       JOIN "Chat" c ON c."id" = h."chatId" JOIN "user" u ON u."id" = c."userId"
       LEFT JOIN "Block" b ON b."id" = nullif(h."blockId", '')`,
    q,
    page.map((h) => h.chatId),
    page.map((h) => h.blockId ?? ""),
  );
  const byId = new Map(shown.map((s) => [s.chatId, s]));
  return page.flatMap((h) => {
    const s = byId.get(h.chatId);
    if (!s) return []; // deleted between the two reads
    return [
      {
        chatId: h.chatId,
        title: s.title,
        owner: s.owner,
        mine: s.ownerId === ctx.user.id,
        messageId: h.messageId,
        snippet: segments(s.snippet ?? ""),
        at: new Date(h.at).toISOString(),
      },
    ];
  });
}

const HIT = `m."chatId", b."id" AS "blockId", b."messageId", m."createdAt" AS at`;
const MATCH_JOIN = `JOIN "Message" m ON m."id" = b."messageId" JOIN "Chat" c ON c."id" = m."chatId"`;
const NOT_FOUND_YET = `NOT (m."chatId" = ANY($5::text[]))`;
const NEWER_THAN_CURSOR = `($4::text IS NULL OR b."id" < $4)`;
/** How a phrase search reads: the newest 4,000 blocks row by row, then the next 16,000, then the GIN index. */
const PHRASE_STEPS = [4000, 16000, "index"] as const;
type Step = number | "index" | "planner";

/** A batch of matching blocks, newest first, older than the cursor $4, outside the chats found ($5). */
function batchSql(step: Step, limit: number): string {
  // The GIN index: every match collected (MATERIALIZED keeps the planner from walking instead), then sorted.
  if (step === "index")
    return `WITH older AS MATERIALIZED (SELECT b."id", b."messageId" FROM "Block" b WHERE ${HAS_WORDS} AND b."searchVector" @@ ${QUERY} AND ${NEWER_THAN_CURSOR})
            SELECT ${HIT} FROM older b ${MATCH_JOIN} WHERE ${VISIBLE} AND ${NOT_FOUND_YET} ORDER BY b."id" DESC LIMIT ${limit}`;
  // A window of the newest blocks walked row by row, or the whole table in the planner's way.
  const from =
    step === "planner"
      ? `"Block" b`
      : `(SELECT "id", "messageId", "searchVector" FROM "Block" b WHERE ${NEWER_THAN_CURSOR} ORDER BY "id" DESC LIMIT ${step}) b`;
  return `SELECT ${HIT} FROM ${from} ${MATCH_JOIN}
           WHERE ${HAS_WORDS} AND b."searchVector" @@ ${QUERY} AND ${VISIBLE} AND ${NOT_FOUND_YET} AND ${NEWER_THAN_CURSOR}
           ORDER BY b."id" DESC LIMIT ${limit}`;
}

/**
 * The newest matching block of each of the newest MAX_CHATS chats with a match, newest first: batches of
 * matching blocks, newest first, each skipping the chats found so far, until the page is full or there
 * are no more. For words the planner knows from the column's statistics how common they are: a common
 * one is walked newest first through the primary key (the page fills in a few dozen rows), a rare one
 * read from the GIN index. A phrase it estimates as its words together, so a phrase of common words that
 * rarely stand together would be walked through the whole table: a phrase walks two windows of the
 * newest blocks, then takes the rest from the GIN index.
 */
async function newestBlockHits(q: string, ctx: Pick<TeamContext, "user" | "team">): Promise<Hit[]> {
  const prisma = await db();
  const [{ phrase }]: { phrase: boolean }[] = await prisma.$queryRawUnsafe(`SELECT ${QUERY}::text LIKE '%<->%' AS phrase`, q);
  const steps: readonly Step[] = phrase ? PHRASE_STEPS : ["planner"];
  const found = new Map<string, Hit>();
  let before: string | null = null;
  for (let s = 0; s < steps.length;) {
    const step = steps[s];
    const limit = (MAX_CHATS - found.size) * 2;
    const rows: Hit[] = await prisma.$queryRawUnsafe<Hit[]>(batchSql(step, limit), q, ctx.team.id, ctx.user.id, before, [...found.keys()]);
    for (const r of rows) if (!found.has(r.chatId) && found.size < MAX_CHATS) found.set(r.chatId, r);
    if (found.size >= MAX_CHATS) break;
    if (rows.length === limit) {
      before = rows[rows.length - 1].blockId;
      continue;
    }
    if (typeof step !== "number") break;
    // The window ran out: on to the older blocks, unless it held the oldest already.
    const [end]: { n: number; cut: string | null }[] = await prisma.$queryRawUnsafe(
      `SELECT count(*)::int AS n, min("id") AS cut FROM (SELECT "id" FROM "Block" WHERE $1::text IS NULL OR "id" < $1 ORDER BY "id" DESC LIMIT ${step}) w`,
      before,
    );
    if (!end || end.n < step || !end.cut) break;
    before = end.cut;
    s++;
  }
  return [...found.values()];
}

/** ts_headline's output as plain-text segments, hits marked. */
export function segments(headline: string): SnippetPart[] {
  const parts: SnippetPart[] = [];
  let rest = headline.replace(/\s+/g, " ").trim();
  while (rest) {
    const start = rest.indexOf(START);
    if (start < 0) {
      parts.push({ text: rest, hit: false });
      break;
    }
    if (start > 0) parts.push({ text: rest.slice(0, start), hit: false });
    const stop = rest.indexOf(STOP, start);
    const end = stop < 0 ? rest.length : stop;
    parts.push({ text: rest.slice(start + 1, end), hit: true });
    rest = stop < 0 ? "" : rest.slice(stop + 1);
  }
  return parts;
}
