// The sidebar's chat list: a user's chats in a team, searched by title in the database, the pinned
// ones first (active view), then the rest newest first, a page at a time (keyset cursor on
// updatedAt + id), each labelled with its date group in the user's time zone: Today, Yesterday,
// Previous 7 days, Previous 30 days, then one group per month. Archived chats are only in the
// "archived" view. Only the caller's own chats in their current team are ever read.
import { z } from "zod";
import { db } from "../db/client";
import type { Prisma } from "../db/generated/client";
import { AppError } from "../errors";
import type { TeamContext } from "../teams/team-context";

export const CHAT_PAGE_SIZE = 50;
/** Pinned chats are few by nature; the list shows at most this many of them. */
const PINNED_MAX = 100;

const timeZone = z
  .string()
  .max(64)
  .refine((tz) => {
    try {
      new Intl.DateTimeFormat("en", { timeZone: tz });
      return true;
    } catch {
      return false;
    }
  }, "Unknown time zone.");

/** `value` when it is a time zone this runtime knows, else UTC. */
export function knownTimeZone(value: string | undefined): string {
  return timeZone.safeParse(value).success ? value! : "UTC";
}

/** `updatedAt` (ISO) and id of the last chat of the page before, joined by "_". */
const cursor = z
  .string()
  .max(80)
  .regex(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z_[A-Za-z0-9_-]{1,64}$/, "Invalid cursor.");

export const chatListQuerySchema = z.object({
  q: z
    .string()
    .trim()
    .max(200, "At most 200 characters.")
    .regex(/^[^\u0000]*$/, "The search has a character that is not allowed.")
    .optional()
    .default(""),
  view: z.enum(["active", "archived"]).optional().default("active"),
  cursor: cursor.optional(),
  tz: timeZone.optional().default("UTC"),
  limit: z.coerce.number().int().min(1).max(100).optional().default(CHAT_PAGE_SIZE),
});
export type ChatListQuery = z.input<typeof chatListQuerySchema>;

export type ChatGroup = "Pinned" | "Today" | "Yesterday" | "Previous 7 days" | "Previous 30 days" | (string & {});

export type ChatListItem = { id: string; title: string | null; updatedAt: string; pinned: boolean; archived: boolean; group: ChatGroup };

export type ChatPage = { chats: ChatListItem[]; nextCursor: string | null };

/** A query from the URL's search parameters (400 for bad ones). */
export function parseChatListQuery(params: URLSearchParams): z.output<typeof chatListQuerySchema> {
  const raw = Object.fromEntries([...params].filter(([k]) => ["q", "view", "cursor", "tz", "limit"].includes(k)));
  const parsed = chatListQuerySchema.safeParse(raw);
  if (!parsed.success) throw new AppError("InvalidInput", 400, parsed.error.issues[0]?.message ?? "Invalid list query.");
  return parsed.data;
}

/**
 * Formatters by time zone and kind, made once: making an Intl.DateTimeFormat costs ~50 µs, and every
 * list page (the sidebar of each signed-in page) dates up to 50 chats twice. Zone names are taken in
 * any letter case, so the map is emptied past a size no real set of members reaches.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(tz: string, kind: "day" | "month"): Intl.DateTimeFormat {
  const key = `${kind} ${tz}`;
  let f = formatters.get(key);
  if (!f) {
    if (formatters.size >= 1_000) formatters.clear();
    f = new Intl.DateTimeFormat(
      "en-US",
      kind === "day" ? { timeZone: tz, year: "numeric", month: "numeric", day: "numeric" } : { timeZone: tz, month: "long", year: "numeric" },
    );
    formatters.set(key, f);
  }
  return f;
}

/** The calendar day of `date` in `tz`, as a day number (days since 1970-01-01 of that calendar). */
function dayNumber(date: Date, tz: string): number {
  const parts = formatter(tz, "day").formatToParts(date);
  const n = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  return Date.UTC(n("year"), n("month") - 1, n("day")) / 86_400_000;
}

/** The date group of a chat last active at `date`, seen at `now` in the time zone `tz`. */
export function dateGroup(date: Date, now: Date, tz = "UTC"): ChatGroup {
  const days = dayNumber(now, tz) - dayNumber(date, tz);
  if (days <= 0) return "Today";
  if (days === 1) return "Yesterday";
  if (days <= 7) return "Previous 7 days";
  if (days <= 30) return "Previous 30 days";
  return formatter(tz, "month").format(date);
}

const select = { id: true, title: true, updatedAt: true, pinnedAt: true, archivedAt: true } as const;
type Row = Prisma.ChatGetPayload<{ select: typeof select }>;

/** One page of the caller's chats (see the header). */
export async function listChatPage(ctx: TeamContext, query: ChatListQuery = {}, now = new Date()): Promise<ChatPage> {
  const { q, view, cursor: after, tz, limit } = chatListQuerySchema.parse(query);
  const prisma = await db();
  const base: Prisma.ChatWhereInput = {
    teamId: ctx.team.id,
    userId: ctx.user.id,
    archivedAt: view === "archived" ? { not: null } : null,
    // LIKE's wildcards in the search are meant literally (Prisma passes them through).
    ...(q ? { title: { contains: q.replace(/[\\%_]/g, "\\$&"), mode: "insensitive" } } : {}),
  };
  const pinnedFirst = view === "active";
  const [pinned, rows] = await Promise.all([
    pinnedFirst && !after
      ? prisma.chat.findMany({ where: { ...base, pinnedAt: { not: null } }, select, orderBy: [{ pinnedAt: "desc" }, { id: "desc" }], take: PINNED_MAX })
      : Promise.resolve([] as Row[]),
    prisma.chat.findMany({
      where: { ...base, ...(pinnedFirst ? { pinnedAt: null } : {}), ...(after ? afterCursor(after) : {}) },
      select,
      orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
      take: limit + 1,
    }),
  ]);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const item = (r: Row, group: ChatGroup): ChatListItem => ({
    id: r.id,
    title: r.title,
    updatedAt: r.updatedAt.toISOString(),
    pinned: r.pinnedAt !== null,
    archived: r.archivedAt !== null,
    group,
  });
  return {
    chats: [...pinned.map((r) => item(r, "Pinned")), ...page.map((r) => item(r, dateGroup(r.updatedAt, now, tz)))],
    nextCursor: rows.length > limit && last ? `${last.updatedAt.toISOString()}_${last.id}` : null,
  };
}

function afterCursor(value: string): Prisma.ChatWhereInput {
  const at = value.indexOf("Z_");
  const updatedAt = new Date(value.slice(0, at + 1));
  const id = value.slice(at + 2);
  return { OR: [{ updatedAt: { lt: updatedAt } }, { updatedAt, id: { lt: id } }] };
}
