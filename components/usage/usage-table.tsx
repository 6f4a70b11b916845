// The table beneath the usage charts (and in a member's Settings): one row per day, member, model and
// provider, with the period's total at the foot.
import { formatCost, formatTokens } from "@/lib/format/usage";
import type { UsageReport } from "@/lib/usage/report";
import { Button } from "../ui/button";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "../ui/table";

export function UsageTable({ report, showMember = true }: { report: Pick<UsageReport, "rows" | "total">; showMember?: boolean }) {
  if (!report.rows.length) return <p className="text-sm text-subtle">No usage in this period.</p>;
  const num = "text-right tabular-nums";
  return (
    <Table label="Usage by day">
      <TableHeader>
        <tr>
          <TableHead>Day</TableHead>
          {showMember && <TableHead>Member</TableHead>}
          <TableHead>Model</TableHead>
          <TableHead>Provider</TableHead>
          <TableHead className={num}>Answers</TableHead>
          <TableHead className={num}>Input</TableHead>
          <TableHead className={num}>Cached</TableHead>
          <TableHead className={num}>Output</TableHead>
          <TableHead className={num}>Reasoning</TableHead>
          <TableHead className={num}>Cost</TableHead>
        </tr>
      </TableHeader>
      <TableBody>
        {report.rows.map((r) => (
          <TableRow key={`${r.day}|${r.userId}|${r.model}|${r.provider}`}>
            <TableCell>{r.day}</TableCell>
            {showMember && <TableCell>{r.member}</TableCell>}
            <TableCell>{r.model}</TableCell>
            <TableCell>{r.provider}</TableCell>
            <TableCell className={num}>{formatTokens(r.answers)}</TableCell>
            <TableCell className={num}>{formatTokens(r.inputTokens)}</TableCell>
            <TableCell className={num}>{formatTokens(r.cachedInputTokens)}</TableCell>
            <TableCell className={num}>{formatTokens(r.outputTokens)}</TableCell>
            <TableCell className={num}>{formatTokens(r.reasoningTokens)}</TableCell>
            <TableCell className={num}>{formatCost(r.cost)}</TableCell>
          </TableRow>
        ))}
        <TableRow className="font-semibold">
          <TableCell colSpan={showMember ? 4 : 3}>Total</TableCell>
          <TableCell className={num}>{formatTokens(report.total.answers)}</TableCell>
          <TableCell colSpan={4} className={num}>
            {formatTokens(report.total.tokens)} tokens
          </TableCell>
          <TableCell className={num} data-testid="usage-total-cost">
            {formatCost(report.total.cost)}
          </TableCell>
        </TableRow>
      </TableBody>
    </Table>
  );
}

/** The period picker: a GET form, so a period is a link that can be shared. */
export function PeriodForm({ action, period, error }: { action: string; period: { from: string; to: string }; error?: string }) {
  return (
    <form method="get" action={action} className="flex flex-wrap items-end gap-3" aria-label="Period">
      <label className="flex flex-col text-sm">
        From
        <input type="date" name="from" defaultValue={period.from} className="mt-1 rounded-md border border-line-strong bg-surface px-2 py-1" />
      </label>
      <label className="flex flex-col text-sm">
        To
        <input type="date" name="to" defaultValue={period.to} className="mt-1 rounded-md border border-line-strong bg-surface px-2 py-1" />
      </label>
      <Button type="submit" variant="secondary">
        Show
      </Button>
      {error && (
        <p role="alert" className="basis-full text-sm text-danger">
          {error}
        </p>
      )}
    </form>
  );
}
