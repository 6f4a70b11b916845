// Budgets that hold: monthly limits (cost in US dollars, or tokens = input + output) for the team, per
// member (a default for everyone and overrides) and per model, checked before a turn starts.
//
// The check counts in the database, not in process memory, so it holds across processes: the month's
// usage records plus the reservations of turns that run now. Inside one transaction that holds the
// team's advisory lock (pg_advisory_xact_lock; PGlite is one connection and serialises anyway) a turn
// either is refused or leaves a reservation of one answer's worth (the model's recent average answer,
// at least MIN_ESTIMATE_TOKENS). So two turns that start at once cannot both take the last of a budget:
// the second sees the first's reservation. A turn that crosses the limit while it streams finishes;
// the limit is overshot by at most about one answer. The reservation goes when the turn stores its
// usage record (usage-record.ts), when the turn fails to start, or after RESERVATION_TTL_MS (a crash: an
// expired reservation counts for nothing, and the next turn that gives its own back clears it).
import type { BudgetMetric, BudgetScope, Prisma, PrismaClient } from "../db/generated/client";
import { AppError } from "../errors";
import { formatBudgetAmount } from "../format/usage";
import { costOf, type Prices } from "./cost";
import { formatDay, monthStart, nextMonthStart } from "./period";
import { metrics } from "../observability/metrics";
import { recordBudgetEvent, type BudgetSighting } from "./budget-events";

export const WARN_AT = 0.8;
export const RESERVATION_TTL_MS = 15 * 60_000;
export const MIN_ESTIMATE_TOKENS = 2_000;
const RECENT_ANSWERS = 20;

type Tx = Prisma.TransactionClient;
/** A team's budget as `holdTurnBudget` reads it (a turn may read them with its chat and hand them over). */
export type TeamBudget = { id: string; scope: BudgetScope; userId: string | null; modelRowId: string | null; metric: BudgetMetric; limit: number };

export type TurnSubject = { teamId: string; userId: string; modelRowId: string; modelName: string; prices: Prices };

/** The refusal of a turn past a limit: 402 for a cost budget, 429 for a token budget, with when it resets. */
export class BudgetExceeded extends AppError {
  constructor(
    message: string,
    readonly metric: BudgetMetric,
    readonly scope: BudgetScope,
    readonly resetsAt: Date,
  ) {
    super("BudgetExceeded", metric === "cost" ? 402 : 429, message, undefined, Math.max(1, Math.ceil((resetsAt.getTime() - Date.now()) / 1000)));
  }
}

export type BudgetHold = {
  /** The reservation to release once the answer's usage is stored; null when no budget applies. */
  reservationId: string | null;
  /** At WARN_AT or more of a budget used (this month's usage and running turns): what the member is told. */
  warning?: { code: "BudgetWarning"; message: string };
};

/** The budgets that apply to this member and model (a member's override replaces the default). */
export function applicableBudgets(rows: TeamBudget[], s: Pick<TurnSubject, "userId" | "modelRowId">): TeamBudget[] {
  const override = rows.filter((b) => b.scope === "member" && b.userId === s.userId);
  const member = override.length ? override : rows.filter((b) => b.scope === "member_default");
  return [...rows.filter((b) => b.scope === "team"), ...member, ...rows.filter((b) => b.scope === "model" && b.modelRowId === s.modelRowId)];
}

/** Whose usage a budget counts, for a turn of this member with this model. */
function countedBy(b: TeamBudget, s: TurnSubject) {
  if (b.scope === "member" || b.scope === "member_default") return { userId: s.userId };
  if (b.scope === "model") return { modelRowId: s.modelRowId };
  return {};
}

function whose(b: TeamBudget, s: TurnSubject): string {
  if (b.scope === "team") return "The team's monthly budget";
  if (b.scope === "model") return `The monthly budget for ${s.modelName}`;
  return "Your monthly budget";
}

/** One answer's worth: the model's recent average in this team, at least MIN_ESTIMATE_TOKENS. */
async function estimate(tx: Tx, s: TurnSubject): Promise<{ tokens: number; cost: number }> {
  const recent = await tx.usageRecord.findMany({
    where: { teamId: s.teamId, modelRowId: s.modelRowId },
    orderBy: { createdAt: "desc" },
    take: RECENT_ANSWERS,
    select: { inputTokens: true, outputTokens: true, cost: true },
  });
  const avg = (f: (r: (typeof recent)[number]) => number) => (recent.length ? recent.reduce((n, r) => n + f(r), 0) / recent.length : 0);
  const tokens = Math.max(MIN_ESTIMATE_TOKENS, Math.ceil(avg((r) => r.inputTokens + r.outputTokens)));
  const half = Math.ceil(tokens / 2);
  const priced = costOf({ inputTokens: half, outputTokens: half, cachedInputTokens: 0, reasoningTokens: 0 }, s.prices) ?? 0;
  return {
    tokens,
    cost: Math.max(
      priced,
      avg((r) => r.cost ?? 0),
    ),
  };
}

/** This month's usage and running reservations that a budget counts (an expired one, a crashed turn's, counts for nothing). */
async function used(tx: Tx, b: TeamBudget, s: TurnSubject, since: Date, now: Date): Promise<number> {
  const by = countedBy(b, s);
  const [usage, held] = await Promise.all([
    tx.usageRecord.aggregate({ where: { teamId: s.teamId, createdAt: { gte: since }, ...by }, _sum: { cost: true, inputTokens: true, outputTokens: true } }),
    tx.budgetReservation.aggregate({ where: { teamId: s.teamId, expiresAt: { gte: now }, ...by }, _sum: { cost: true, tokens: true } }),
  ]);
  if (b.metric === "cost") return (usage._sum.cost ?? 0) + (held._sum.cost ?? 0);
  return (usage._sum.inputTokens ?? 0) + (usage._sum.outputTokens ?? 0) + (held._sum.tokens ?? 0);
}

/**
 * Checks the budgets for a turn about to start and reserves one answer's worth; throws BudgetExceeded
 * (nothing written) when a budget is used up. Costs one query when the team has no budget, none when
 * the caller read the team's budgets already (`teamBudgets`: every budget row of `s.teamId`, as read
 * in this request; the usage they count is read here, in the transaction).
 */
export async function holdTurnBudget(prisma: PrismaClient, s: TurnSubject, now = new Date(), teamBudgets?: TeamBudget[]): Promise<BudgetHold> {
  const rows = applicableBudgets(teamBudgets ?? (await prisma.budget.findMany({ where: { teamId: s.teamId } })), s);
  if (!rows.length) return { reservationId: null };
  const since = monthStart(now);
  const resetsAt = nextMonthStart(now);
  const sighting = (kind: BudgetSighting["kind"], budget: TeamBudget, spent: number): BudgetSighting => ({
    kind,
    budget,
    used: spent,
    subject: s,
    monthStart: since,
    resetsAt,
  });
  let refused: BudgetSighting | undefined;
  return prisma
    .$transaction(
      async (tx) => {
        await tx.$queryRaw`SELECT 1 AS locked FROM (SELECT pg_advisory_xact_lock(hashtext(${"parley:budget:" + s.teamId}))) AS l`;
        const one = await estimate(tx, s);
        let warning: BudgetHold["warning"];
        let worst = 0;
        for (const b of rows) {
          const spent = await used(tx, b, s, since, now);
          if (spent >= b.limit) {
            metrics().budgetRefusals.inc({ scope: b.scope, metric: b.metric });
            refused = sighting("budget.exceeded", b, spent);
            throw new BudgetExceeded(
              `${whose(b, s)} of ${formatBudgetAmount(b.metric, b.limit)} is used up until ${formatDay(resetsAt)}. Ask an admin of your team to raise it.`,
              b.metric,
              b.scope,
              resetsAt,
            );
          }
          // The warning is about what is used (as it says, and as Admin → Usage states), not about the
          // estimate of the answer to come: that one pushed a 45% budget past 80% and warned "45% used".
          const share = spent / b.limit;
          // The team's admins hear of it once a month (lib/notifications), in this transaction.
          if (share >= WARN_AT) await recordBudgetEvent(tx, sighting("budget.warning", b, spent));
          if (share >= WARN_AT && share > worst) {
            worst = share;
            // (Rounded down, past floating point's crumbs: $0.0099 of $0.01 is 99%, not 98%.)
            const pct = Math.min(100, Math.floor(share * 100 + 1e-9));
            warning = {
              code: "BudgetWarning",
              message: `${whose(b, s)} is ${pct}% used (${formatBudgetAmount(b.metric, spent)} of ${formatBudgetAmount(b.metric, b.limit)}); it resets on ${formatDay(resetsAt)}.`,
            };
          }
        }
        const hold = await tx.budgetReservation.create({
          data: {
            teamId: s.teamId,
            userId: s.userId,
            modelRowId: s.modelRowId,
            tokens: one.tokens,
            cost: one.cost,
            expiresAt: new Date(now.getTime() + RESERVATION_TTL_MS),
          },
        });
        return { reservationId: hold.id, warning };
      },
      { timeout: 15_000, maxWait: 15_000 },
    )
    .catch(async (err: unknown) => {
      // The refusal rolled the transaction back: the event of the budget used up is recorded after it.
      if (refused && err instanceof BudgetExceeded) await recordBudgetEvent(prisma, refused).catch(() => false);
      throw err;
    });
}

/**
 * Gives a reservation back (the turn did not start, or its usage is stored), and clears expired ones
 * (crashed turns'; they count for nothing) after the turn instead of before it.
 */
export async function releaseHold(prisma: PrismaClient | Tx, reservationId: string | null | undefined): Promise<void> {
  if (reservationId) await prisma.budgetReservation.deleteMany({ where: { OR: [{ id: reservationId }, { expiresAt: { lt: new Date() } }] } });
}
