// Admin → Usage: the team's tokens and cost for a period (this month by default) as charts by day,
// member, model and provider, the table beneath, a CSV export, and the team's monthly budgets.
import { adminPage } from "@/app/_server/page-guards";
import { isAppError } from "@/lib/errors";
import { budgetChoices, listBudgets } from "@/lib/usage/budget-admin";
import { parsePeriod, usageReport, type Period } from "@/lib/usage/report";
import { BudgetsPanel } from "@/components/usage/budgets-panel";
import { UsageCharts } from "@/components/usage/usage-charts";
import { PeriodForm, UsageTable } from "@/components/usage/usage-table";
import { formatCost, formatTokens } from "@/lib/format/usage";
import { deleteBudgetAction, saveBudgetAction } from "./actions";

export const metadata = { title: "Usage" };

export default async function UsagePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const ctx = await adminPage("/admin/usage");
  const q = await searchParams;
  const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) || undefined;
  let period: Period;
  let error: string | undefined;
  try {
    period = parsePeriod({ from: one(q.from), to: one(q.to) });
  } catch (err) {
    if (!isAppError(err)) throw err;
    error = err.message;
    period = parsePeriod({});
  }
  const [report, budgets, choices] = await Promise.all([usageReport(ctx.team.id, period), listBudgets(ctx.team.id), budgetChoices(ctx.team.id)]);
  const csv = `/api/usage/export?${new URLSearchParams(period)}`;
  return (
    <div className="flex flex-col gap-8">
      <section aria-labelledby="usage-heading" className="flex flex-col gap-4">
        <h1 id="usage-heading" className="text-lg font-semibold">
          Usage
        </h1>
        <PeriodForm action="/admin/usage" period={period} error={error} />
        <p className="text-sm" data-testid="usage-summary">
          {period.from} to {period.to}: {formatTokens(report.total.answers)} answers, {formatTokens(report.total.tokens)} tokens,{" "}
          {formatCost(report.total.cost)}.{" "}
          <a href={csv} className="underline underline-offset-2" download>
            Export CSV
          </a>
        </p>
        <UsageCharts report={report} />
        <UsageTable report={report} />
      </section>
      <section aria-labelledby="budgets-heading" className="flex flex-col gap-3">
        <h2 id="budgets-heading" className="text-base font-semibold">
          Budgets
        </h2>
        <p className="text-sm text-subtle">
          Monthly limits, counted from the first of the month (UTC). A turn past a limit does not start; members see a warning at 80%. A member&apos;s own
          budget replaces the default for everyone.
        </p>
        <BudgetsPanel budgets={budgets} members={choices.members} models={choices.models} save={saveBudgetAction} remove={deleteBudgetAction} />
      </section>
    </div>
  );
}
