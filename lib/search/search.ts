// Full-text search over the chats a member may see (their own, and those shared with them: the rule of
// lib/sharing/access.ts, written here in SQL): chat titles, and every block's text, tool input and tool
// output. PostgreSQL's full-text search on both drivers (PGlite is PostgreSQL): `websearch_to_tsquery`
// (quotes, OR, -word), GIN expression indexes (prisma/migrations/…_working_together; the expressions
// below must stay identical to the indexed ones), and `ts_headline` for the highlighted snippet.
// The 'simple' configuration: no stemming, but no language assumed either (a team writes in any).
// One result per chat, newest match first; the snippet comes back as segments, so no HTML is built
// from chat text.
import { z } from "zod";
import { db } from "../db/client";
import { Invalid } from "../errors";
import type { TeamContext } from "../teams/context";

export const searchQuerySchema = z.object({
  q: z.string().trim().min(1, "Enter something to search for.").max(200, "At most 200 characters.").regex(/^[^\u0000]*$/, "The search has a character that is not allowed."),
});

export type SnippetPart = { text: string; hit: boolean };
export type SearchResult = { chatId: string; title: string | null; owner: string; mine: boolean; messageId: string | null; snippet: SnippetPart[]; at: string };

/** Most chats a search returns. */
const MAX_CHATS = 30;
/** Most matching blocks read to find those chats. */
const MAX_BLOCKS = 300;
/** Marks of a hit in ts_headline's output: private-use characters, which no chat text holds in practice. */
const START = "\uE000";
const STOP = "\uE001";

const BLOCK_DOC = `coalesce(b."text", '') || ' ' || coalesce(b."input"::text, '') || ' ' || coalesce(b."output"::text, '')`;
const TITLE_DOC = `coalesce(c."title", '')`;
/** The chats of team $2 that user $3 may see (lib/sharing/access.ts visibleChats). */
const VISIBLE = `c."teamId" = $2 AND (c."userId" = $3
  OR EXISTS (SELECT 1 FROM "ChatShare" s WHERE s."chatId" = c."id" AND (s."userId" = $3 OR s."userId" IS NULL))
  OR EXISTS (SELECT 1 FROM "Project" p WHERE p."id" = c."projectId" AND p."shared" AND p."teamId" = c."teamId"))`;
const HEADLINE = `'StartSel=${START}, StopSel=${STOP}, MaxWords=24, MinWords=8, MaxFragments=2, FragmentDelimiter=" … "'`;

type Row = { chatId: string; title: string | null; owner: string; ownerId: string; messageId: string | null; snippet: string | null; at: Date };

export async function searchChats(ctx: Pick<TeamContext, "user" | "team">, rawQuery: string): Promise<SearchResult[]> {
  const parsed = searchQuerySchema.safeParse({ q: rawQuery });
  if (!parsed.success) throw Invalid(parsed.error.issues[0]?.message ?? "Invalid search.");
  const q = parsed.data.q;
  const prisma = await db();
  const args = [q, ctx.team.id, ctx.user.id] as const;
  const [blocks, titles] = await Promise.all([
    // Matching blocks, newest first, then their headline: only for the rows kept. Block ids are cuids,
    // which sort by creation time: for a rare word the planner reads the GIN index, for a common one it
    // walks the primary key backwards and stops after enough matches.
    prisma.$queryRawUnsafe<Row[]>(
      `WITH query AS (SELECT websearch_to_tsquery('simple', $1) AS q),
       hits AS (
         SELECT b."id", b."messageId", m."chatId", m."createdAt" AS at
           FROM "Block" b JOIN "Message" m ON m."id" = b."messageId" JOIN "Chat" c ON c."id" = m."chatId", query
          WHERE to_tsvector('simple'::regconfig, ${BLOCK_DOC}) @@ query.q AND ${VISIBLE}
          ORDER BY b."id" DESC
          LIMIT ${MAX_BLOCKS}),
       best AS (SELECT DISTINCT ON ("chatId") * FROM hits ORDER BY "chatId", at DESC)
       SELECT best."chatId", c."title", u."name" AS owner, c."userId" AS "ownerId", best."messageId", best.at,
              ts_headline('simple', ${BLOCK_DOC}, query.q, ${HEADLINE}) AS snippet
         FROM best JOIN "Block" b ON b."id" = best."id" JOIN "Chat" c ON c."id" = best."chatId" JOIN "user" u ON u."id" = c."userId", query
        ORDER BY best.at DESC
        LIMIT ${MAX_CHATS}`,
      ...args,
    ),
    prisma.$queryRawUnsafe<Row[]>(
      `WITH query AS (SELECT websearch_to_tsquery('simple', $1) AS q)
       SELECT c."id" AS "chatId", c."title", u."name" AS owner, c."userId" AS "ownerId", NULL AS "messageId", c."updatedAt" AS at,
              ts_headline('simple', ${TITLE_DOC}, query.q, ${HEADLINE}) AS snippet
         FROM "Chat" c JOIN "user" u ON u."id" = c."userId", query
        WHERE to_tsvector('simple'::regconfig, ${TITLE_DOC}) @@ query.q AND ${VISIBLE}
        ORDER BY c."updatedAt" DESC
        LIMIT ${MAX_CHATS}`,
      ...args,
    ),
  ]);
  // A chat whose content matches shows that snippet; one that matches by title alone, its title.
  const byChat = new Map<string, Row>();
  for (const r of blocks) byChat.set(r.chatId, r);
  for (const r of titles) if (!byChat.has(r.chatId)) byChat.set(r.chatId, r);
  return [...byChat.values()]
    .sort((a, b) => new Date(b.at).getTime() - new Date(a.at).getTime())
    .slice(0, MAX_CHATS)
    .map((r) => ({
      chatId: r.chatId,
      title: r.title,
      owner: r.owner,
      mine: r.ownerId === ctx.user.id,
      messageId: r.messageId,
      snippet: segments(r.snippet ?? ""),
      at: new Date(r.at).toISOString(),
    }));
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
