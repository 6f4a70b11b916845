// The team events of budgets (lib/notifications): budget.warning when a turn starts with WARN_AT or more
// of a budget used, budget.exceeded when a budget refuses a turn; each once per budget and month (and
// member, for a member's budget), however many turns see it and on however many instances.
import type { BudgetMetric, BudgetScope, Prisma, PrismaClient } from "../db/generated/client";
import { recordTeamEvent } from "../notifications/events";

type Client = PrismaClient | Prisma.TransactionClient;

export type BudgetSighting = {
  kind: "budget.warning" | "budget.exceeded";
  budget: { id: string; scope: BudgetScope; metric: BudgetMetric; limit: number };
  used: number;
  subject: { teamId: string; userId: string; modelName: string };
  monthStart: Date;
  resetsAt: Date;
};

/** Records the event unless this budget's month (and member) already has one of its kind. */
export async function recordBudgetEvent(tx: Client, s: BudgetSighting): Promise<boolean> {
  const perMember = s.budget.scope === "member" || s.budget.scope === "member_default";
  const period = s.monthStart.toISOString().slice(0, 10);
  const once = `${s.kind}:${s.budget.id}:${perMember ? s.subject.userId : ""}:${period}`;
  const member = perMember ? await tx.user.findUnique({ where: { id: s.subject.userId }, select: { id: true, name: true, email: true } }) : null;
  return recordTeamEvent(
    tx,
    {
      kind: s.kind,
      teamId: s.subject.teamId,
      budgetId: s.budget.id,
      scope: s.budget.scope,
      metric: s.budget.metric,
      used: s.used,
      limit: s.budget.limit,
      member,
      model: s.budget.scope === "model" ? s.subject.modelName : null,
      period,
      resetsAt: s.resetsAt.toISOString(),
    },
    { once },
  );
}
