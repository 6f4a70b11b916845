// The usage behind Admin → Usage and a member's Settings: a period's usage records grouped by day,
// member, model and provider (one query), then totals per day (every day of the period, zeros
// included), per member, per model and per provider for the charts, the rows for the table, and CSV.
import { z } from "zod";
import { db } from "../db/client";
import { Invalid } from "../errors";
import { monthStart } from "./period";

const DAY = 86_400_000;
export const MAX_PERIOD_DAYS = 366;

const isoDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "Use a date as YYYY-MM-DD.")
  .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)), "Not a date.");

/** A period of whole days (UTC), `from` and `to` included; this month so far by default. */
export const periodSchema = z.object({ from: isoDay.optional(), to: isoDay.optional() });

export type Period = { from: string; to: string };

const day = (d: Date) => d.toISOString().slice(0, 10);

export function parsePeriod(raw: { from?: string; to?: string }, now = new Date()): Period {
  const parsed = periodSchema.safeParse(raw);
  if (!parsed.success)
    throw Invalid("Choose a period with dates as YYYY-MM-DD.", Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
  const from = parsed.data.from ?? day(monthStart(now));
  const to = parsed.data.to ?? day(now);
  if (to < from) throw Invalid("The period ends before it starts.", { to: "Choose a day on or after the start." });
  if ((Date.parse(to) - Date.parse(from)) / DAY >= MAX_PERIOD_DAYS)
    throw Invalid(`Choose a period of at most ${MAX_PERIOD_DAYS} days.`, { from: "Too long a period." });
  return { from, to };
}

export type UsageRow = {
  day: string;
  userId: string | null;
  member: string;
  model: string;
  provider: string;
  answers: number;
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
  reasoningTokens: number;
  /** Null when none of the answers had a price. */
  cost: number | null;
};

export type UsageTotal = { key: string; label: string; tokens: number; cost: number; answers: number };

export type UsageReport = {
  period: Period;
  rows: UsageRow[];
  total: { tokens: number; cost: number; answers: number };
  daily: { day: string; tokens: number; cost: number }[];
  byMember: UsageTotal[];
  byModel: UsageTotal[];
  byProvider: UsageTotal[];
};

type Raw = Omit<UsageRow, "cost" | "answers" | "inputTokens" | "cachedInputTokens" | "outputTokens" | "reasoningTokens"> &
  Record<"answers" | "inputTokens" | "cachedInputTokens" | "outputTokens" | "reasoningTokens", number> & { cost: number | null };

/** The team's usage in a period; only one member's when `userId` is given (a member's own view). */
export async function usageReport(teamId: string, period: Period, userId?: string): Promise<UsageReport> {
  const prisma = await db();
  const start = new Date(`${period.from}T00:00:00Z`);
  const end = new Date(Date.parse(`${period.to}T00:00:00Z`) + DAY);
  const rows = await prisma.$queryRaw<Raw[]>`
    SELECT to_char(date_trunc('day', u."createdAt"), 'YYYY-MM-DD') AS "day",
           u."userId" AS "userId",
           COALESCE(usr."name", 'Former member') AS "member",
           COALESCE(m."displayName", u."model") AS "model",
           COALESCE(p."name", 'Deleted provider') AS "provider",
           COUNT(*)::float8 AS "answers",
           SUM(u."inputTokens")::float8 AS "inputTokens",
           SUM(u."cachedInputTokens")::float8 AS "cachedInputTokens",
           SUM(u."outputTokens")::float8 AS "outputTokens",
           SUM(u."reasoningTokens")::float8 AS "reasoningTokens",
           SUM(u."cost") AS "cost"
    FROM "UsageRecord" u
    LEFT JOIN "user" usr ON usr."id" = u."userId"
    LEFT JOIN "Model" m ON m."id" = u."modelRowId"
    LEFT JOIN "Provider" p ON p."id" = u."providerId"
    WHERE u."teamId" = ${teamId} AND u."createdAt" >= ${start} AND u."createdAt" < ${end}
      AND (${userId ?? null}::text IS NULL OR u."userId" = ${userId ?? null}::text)
    GROUP BY 1, 2, 3, 4, 5
    ORDER BY 1, 3, 4, 5`;
  return summarise(
    period,
    rows.map((r) => ({ ...r, cost: r.cost == null ? null : Math.round(Number(r.cost) * 1e9) / 1e9 })),
  );
}

function totals(rows: UsageRow[], keyOf: (r: UsageRow) => string, labelOf: (r: UsageRow) => string): UsageTotal[] {
  const by = new Map<string, UsageTotal>();
  for (const r of rows) {
    const key = keyOf(r);
    const t = by.get(key) ?? { key, label: labelOf(r), tokens: 0, cost: 0, answers: 0 };
    t.tokens += r.inputTokens + r.outputTokens;
    t.cost += r.cost ?? 0;
    t.answers += r.answers;
    by.set(key, t);
  }
  return [...by.values()].sort((a, b) => b.cost - a.cost || b.tokens - a.tokens);
}

export function summarise(period: Period, rows: UsageRow[]): UsageReport {
  const daily = new Map<string, { day: string; tokens: number; cost: number }>();
  for (let t = Date.parse(`${period.from}T00:00:00Z`); t <= Date.parse(`${period.to}T00:00:00Z`); t += DAY) {
    const d = new Date(t).toISOString().slice(0, 10);
    daily.set(d, { day: d, tokens: 0, cost: 0 });
  }
  for (const r of rows) {
    const d = daily.get(r.day);
    if (!d) continue;
    d.tokens += r.inputTokens + r.outputTokens;
    d.cost += r.cost ?? 0;
  }
  const all = totals(
    rows,
    () => "all",
    () => "all",
  )[0];
  return {
    period,
    rows,
    total: { tokens: all?.tokens ?? 0, cost: all?.cost ?? 0, answers: all?.answers ?? 0 },
    daily: [...daily.values()],
    byMember: totals(
      rows,
      (r) => r.userId ?? "",
      (r) => r.member,
    ),
    byModel: totals(
      rows,
      (r) => r.model,
      (r) => r.model,
    ),
    byProvider: totals(
      rows,
      (r) => r.provider,
      (r) => r.provider,
    ),
  };
}

const CSV_COLUMNS = ["day", "member", "model", "provider", "answers", "inputTokens", "cachedInputTokens", "outputTokens", "reasoningTokens", "cost"] as const;

/** A CSV cell: quoted when it needs to be, and never read as a formula by a spreadsheet. */
function cell(v: string | number | null): string {
  if (v == null) return "";
  let s = String(v);
  if (/^[=+\-@\t\r]/.test(s) && typeof v === "string") s = `'${s}`;
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function usageCsv(report: UsageReport): string {
  const lines = [CSV_COLUMNS.join(",")];
  for (const r of report.rows) lines.push(CSV_COLUMNS.map((c) => cell(r[c])).join(","));
  return lines.join("\r\n") + "\r\n";
}
