// The usage report behind Admin → Usage and Settings (grouped per day, member, model and provider; a
// member's own view; CSV that no spreadsheet runs as a formula), periods refused with 400, and budget
// forms that cannot reach another team's members, models or budgets.
import { describe, expect, it } from "vitest";
import { db } from "../db/client";
import { makeUser, rejection } from "@/test/support/test-app";
import { teamWithProvider } from "@/test/support/test-turns";
import { turnHarness } from "@/test/support/turn-harness";
import { budgetFormSchema, deleteBudget, listBudgets, saveBudget } from "./budget-admin";
import { parsePeriod, usageCsv, usageReport } from "./report";

turnHarness(() => {});

describe("periods", () => {
  it("defaults to this month so far, and refuses bad, reversed or too long periods with 400", async () => {
    expect(parsePeriod({}, new Date("2026-11-24T10:00:00Z"))).toEqual({ from: "2026-11-01", to: "2026-11-24" });
    for (const bad of [
      { from: "2026-13-45" },
      { from: "yesterday" },
      { from: "2026-11-01\u0000" },
      { from: "2026-11-10", to: "2026-11-01" },
      { from: "2020-01-01", to: "2026-01-01" },
    ]) {
      expect((await rejection(Promise.resolve().then(() => parsePeriod(bad)))).status).toBe(400);
    }
  });
});

describe("the usage report", () => {
  it("groups a period's usage by day, member, model and provider, fills every day, and gives a member only their own", async () => {
    const { ctx, model, provider } = await teamWithProvider("http://127.0.0.1:9/v1");
    const prisma = await db();
    const other = await makeUser('=HYPERLINK("x")');
    await prisma.membership.create({ data: { teamId: ctx.team.id, userId: other.id } });
    const rec = (userId: string, day: string, input: number, output: number, cost: number | null) =>
      prisma.usageRecord.create({
        data: {
          teamId: ctx.team.id,
          userId,
          providerId: provider.id,
          model: model.modelId,
          modelRowId: model.id,
          inputTokens: input,
          outputTokens: output,
          cost,
          createdAt: new Date(`${day}T12:00:00Z`),
        },
      });
    await rec(ctx.user.id, "2026-11-02", 100, 50, 0.25);
    await rec(ctx.user.id, "2026-11-02", 10, 5, 0.05);
    await rec(other.id, "2026-11-03", 1000, 0, null);
    await rec(ctx.user.id, "2026-10-31", 999, 999, 9); // before the period

    const report = await usageReport(ctx.team.id, { from: "2026-11-01", to: "2026-11-04" });
    expect(report.daily).toEqual([
      { day: "2026-11-01", tokens: 0, cost: 0 },
      { day: "2026-11-02", tokens: 165, cost: 0.3 },
      { day: "2026-11-03", tokens: 1000, cost: 0 },
      { day: "2026-11-04", tokens: 0, cost: 0 },
    ]);
    expect(report.total).toEqual({ tokens: 1165, cost: 0.3, answers: 3 });
    expect(report.byMember.map((m) => [m.label, m.tokens, m.answers])).toEqual([
      ["chatter", 165, 2],
      [other.name, 1000, 1],
    ]);
    expect(report.byModel).toHaveLength(1);
    expect(report.rows.find((r) => r.userId === other.id)?.cost).toBeNull();

    const csv = usageCsv(report).split("\r\n");
    expect(csv[1]).toBe("2026-11-02,chatter,gpt-test,aimock,2,110,0,55,0,0.3");
    // A name that starts like a formula is quoted and defused.
    expect(csv[2]).toBe(`2026-11-03,"'=HYPERLINK(""x"")",gpt-test,aimock,1,1000,0,0,0,`);

    const mine = await usageReport(ctx.team.id, { from: "2026-11-01", to: "2026-11-04" }, other.id);
    expect(mine.rows.map((r) => r.userId)).toEqual([other.id]);
  });
});

describe("budget forms", () => {
  it("set, replace, list with what was used, and never reach another team", async () => {
    const { ctx, model } = await teamWithProvider("http://127.0.0.1:9/v1");
    const foreign = await teamWithProvider("http://127.0.0.1:9/v1");
    const input = (v: Record<string, string>) => budgetFormSchema.parse({ metric: "cost", limit: "10", ...v });
    await saveBudget(ctx, input({ scope: "team" }));
    await saveBudget(ctx, input({ scope: "team", limit: "25.5" }));
    await saveBudget(ctx, input({ scope: "model", modelRowId: model.id, metric: "tokens", limit: "5000" }));
    const budgets = await listBudgets(ctx.team.id);
    expect(budgets.map((b) => [b.subject, b.metric, b.limit, b.used])).toEqual([
      ["Whole team", "cost", 25.5, 0],
      ["gpt-test", "tokens", 5000, 0],
    ]);
    expect((await rejection(saveBudget(ctx, input({ scope: "member", userId: foreign.ctx.user.id })))).fieldErrors).toEqual({
      userId: "Choose a member of this team.",
    });
    expect((await rejection(saveBudget(ctx, input({ scope: "model", modelRowId: foreign.model.id })))).status).toBe(400);
    const theirs = await db().then((p) => p.budget.create({ data: { teamId: foreign.ctx.team.id, scope: "team", metric: "cost", limit: 1 } }));
    expect((await rejection(deleteBudget(ctx, theirs.id))).status).toBe(404);
    expect(budgetFormSchema.safeParse({ scope: "team", metric: "cost", limit: "-1" }).success).toBe(false);
    expect(budgetFormSchema.safeParse({ scope: "member", metric: "cost", limit: "1" }).success).toBe(false);
    expect(await db().then((p) => p.auditEvent.count({ where: { teamId: ctx.team.id, action: "budget.set" } }))).toBe(3);
  });
});
