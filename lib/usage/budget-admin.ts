// Admins set a team's monthly budgets: for the team, a default for every member, an override for one
// member, or one model; in US dollars or tokens. One budget per scope and subject (saving again
// replaces it). Each change is an audit event. The list shows what each has used this month.
import { z } from "zod";
import { audited } from "../audit";
import { db } from "../db/client";
import type { BudgetMetric, BudgetScope } from "../db/generated/client";
import { Invalid, NotFound } from "../errors";
import type { TeamContext } from "../teams/team-context";
import { idField } from "../validation";
import { monthStart, nextMonthStart } from "./period";

export const budgetFormSchema = z
  .object({
    scope: z.enum(["team", "member_default", "member", "model"], { error: "Choose what the budget is for." }),
    userId: idField.or(z.literal("")).optional().default(""),
    modelRowId: idField.or(z.literal("")).optional().default(""),
    metric: z.enum(["cost", "tokens"], { error: "Choose dollars or tokens." }),
    limit: z
      .string()
      .trim()
      .regex(/^\d{1,12}(\.\d{1,4})?$/, "Enter a number, e.g. 50 or 12.50.")
      .transform(Number)
      .pipe(z.number().positive("Enter more than 0.")),
  })
  .superRefine((v, ctx) => {
    if (v.scope === "member" && !v.userId) ctx.addIssue({ code: "custom", path: ["userId"], message: "Choose a member." });
    if (v.scope === "model" && !v.modelRowId) ctx.addIssue({ code: "custom", path: ["modelRowId"], message: "Choose a model." });
  });
export type BudgetFormInput = z.infer<typeof budgetFormSchema>;

export type BudgetView = { id: string; scope: BudgetScope; subject: string; metric: BudgetMetric; limit: number; used: number; resetsAt: string };

/** The team's budgets with what each has used this month (usage records; running turns aside). */
export async function listBudgets(teamId: string, now = new Date()): Promise<BudgetView[]> {
  const prisma = await db();
  const rows = await prisma.budget.findMany({
    where: { teamId },
    include: { user: { select: { name: true } }, modelRow: { select: { displayName: true } } },
    orderBy: { createdAt: "asc" },
  });
  const since = monthStart(now);
  return Promise.all(
    rows.map(async (b) => {
      // A member default counts each member apart: shown here is the member who used the most.
      const where = {
        teamId,
        createdAt: { gte: since },
        ...(b.scope === "member" ? { userId: b.userId } : b.scope === "model" ? { modelRowId: b.modelRowId } : {}),
      };
      let used = 0;
      if (b.scope === "member_default") {
        const per = await prisma.usageRecord.groupBy({ by: ["userId"], where, _sum: { cost: true, inputTokens: true, outputTokens: true } });
        used = Math.max(0, ...per.map((p) => (b.metric === "cost" ? (p._sum.cost ?? 0) : (p._sum.inputTokens ?? 0) + (p._sum.outputTokens ?? 0))));
      } else {
        const s = await prisma.usageRecord.aggregate({ where, _sum: { cost: true, inputTokens: true, outputTokens: true } });
        used = b.metric === "cost" ? (s._sum.cost ?? 0) : (s._sum.inputTokens ?? 0) + (s._sum.outputTokens ?? 0);
      }
      const subject =
        b.scope === "team"
          ? "Whole team"
          : b.scope === "member_default"
            ? "Each member (default)"
            : b.scope === "member"
              ? (b.user?.name ?? "Member")
              : (b.modelRow?.displayName ?? "Model");
      return { id: b.id, scope: b.scope, subject, metric: b.metric, limit: b.limit, used, resetsAt: nextMonthStart(now).toISOString() };
    }),
  );
}

/** Sets a budget (replacing the one for the same scope and subject). */
export async function saveBudget(ctx: TeamContext, input: BudgetFormInput): Promise<void> {
  const prisma = await db();
  const teamId = ctx.team.id;
  const userId = input.scope === "member" ? input.userId : null;
  const modelRowId = input.scope === "model" ? input.modelRowId : null;
  if (userId && !(await prisma.membership.findFirst({ where: { teamId, userId } })))
    throw Invalid("Please correct the highlighted fields.", { userId: "Choose a member of this team." });
  if (modelRowId && !(await prisma.model.findFirst({ where: { id: modelRowId, provider: { OR: [{ teamId }, { teamId: null }] } } }))) {
    throw Invalid("Please correct the highlighted fields.", { modelRowId: "Choose a model of this team." });
  }
  const data = { teamId, scope: input.scope, userId, modelRowId, metric: input.metric, limit: input.limit };
  await audited(
    ctx,
    async (tx) => {
      await tx.budget.deleteMany({ where: { teamId, scope: input.scope, userId, modelRowId } });
      return tx.budget.create({ data });
    },
    (row) => ({
      action: "budget.set",
      targetType: "budget",
      targetId: row.id,
      data: { scope: data.scope, userId, modelRowId, metric: data.metric, limit: data.limit },
    }),
  );
}

export async function deleteBudget(ctx: TeamContext, budgetId: string): Promise<void> {
  const prisma = await db();
  const row = await prisma.budget.findFirst({ where: { id: budgetId, teamId: ctx.team.id } });
  if (!row) throw NotFound("No such budget in this team.");
  await audited(ctx, (tx) => tx.budget.delete({ where: { id: budgetId } }), {
    action: "budget.delete",
    targetType: "budget",
    targetId: budgetId,
    data: { scope: row.scope, metric: row.metric, limit: row.limit },
  });
}

/** Members and models an admin can set a budget for. */
export async function budgetChoices(teamId: string) {
  const prisma = await db();
  const [members, models] = await Promise.all([
    prisma.membership.findMany({ where: { teamId }, include: { user: { select: { id: true, name: true, email: true } } }, orderBy: { createdAt: "asc" } }),
    prisma.model.findMany({
      where: { provider: { OR: [{ teamId }, { teamId: null }] } },
      select: { id: true, displayName: true },
      orderBy: { displayName: "asc" },
    }),
  ]);
  return {
    members: members.map((m) => ({ id: m.user.id, label: `${m.user.name} (${m.user.email})` })),
    models: models.map((m) => ({ id: m.id, label: m.displayName })),
  };
}
