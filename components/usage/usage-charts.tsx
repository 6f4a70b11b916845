"use client";
// Admin → Usage charts (recharts): tokens and cost per day, and totals by member, model and provider.
// Each chart has a heading and a text summary for screen readers; the table beneath holds the numbers.
// Cost axes tick in round steps (cost-axis.ts).
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatCost, formatTokens } from "@/lib/format/usage";
import type { UsageReport, UsageTotal } from "@/lib/usage/report";
import { costAxis } from "./cost-axis";

const TOKENS = "#2563eb";
const COST = "#b45309";

function Chart({ title, children, summary }: { title: string; children: React.ReactElement; summary: string }) {
  return (
    <figure className="rounded-lg border border-line p-3">
      <figcaption className="mb-2 text-sm font-semibold">{title}</figcaption>
      <p className="sr-only">{summary}</p>
      <div className="h-56 w-full" aria-hidden>
        <ResponsiveContainer width="100%" height="100%" minWidth={0}>
          {children}
        </ResponsiveContainer>
      </div>
    </figure>
  );
}

function TotalsChart({ title, totals }: { title: string; totals: UsageTotal[] }) {
  const data = totals.slice(0, 12).map((t) => ({ name: t.label, tokens: t.tokens, cost: Math.round(t.cost * 10_000) / 10_000 }));
  const cost = costAxis(Math.max(0, ...data.map((d) => d.cost)));
  return (
    <Chart title={title} summary={totals.map((t) => `${t.label}: ${formatTokens(t.tokens)} tokens, ${formatCost(t.cost)}`).join("; ") || "No usage."}>
      <BarChart accessibilityLayer={false} data={data} layout="vertical" margin={{ left: 8, right: 16 }}>
        <CartesianGrid strokeDasharray="3 3" horizontal={false} />
        <XAxis type="number" xAxisId="tokens" orientation="bottom" tickFormatter={(v: number) => formatTokens(v)} fontSize={11} />
        <XAxis type="number" xAxisId="cost" orientation="top" ticks={cost.ticks} domain={cost.domain} tickFormatter={cost.format} fontSize={11} />
        <YAxis type="category" dataKey="name" width={110} fontSize={11} />
        <Tooltip formatter={(v, name) => (name === "Cost" ? formatCost(Number(v)) : formatTokens(Number(v)))} />
        <Legend />
        <Bar dataKey="tokens" name="Tokens" xAxisId="tokens" fill={TOKENS} />
        <Bar dataKey="cost" name="Cost" xAxisId="cost" fill={COST} />
      </BarChart>
    </Chart>
  );
}

export function UsageCharts({ report }: { report: Pick<UsageReport, "daily" | "byMember" | "byModel" | "byProvider"> }) {
  const daily = report.daily.map((d) => ({ day: d.day.slice(5), tokens: d.tokens, cost: Math.round(d.cost * 10_000) / 10_000 }));
  const busiest = report.daily.filter((d) => d.tokens > 0);
  const cost = costAxis(Math.max(0, ...daily.map((d) => d.cost)));
  return (
    <div className="grid gap-4 md:grid-cols-2">
      <Chart title="Tokens per day" summary={busiest.map((d) => `${d.day}: ${formatTokens(d.tokens)} tokens`).join("; ") || "No usage."}>
        <BarChart accessibilityLayer={false} data={daily}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="day" fontSize={11} />
          <YAxis tickFormatter={(v: number) => formatTokens(v)} fontSize={11} width={64} />
          <Tooltip formatter={(v) => formatTokens(Number(v))} />
          <Bar dataKey="tokens" name="Tokens" fill={TOKENS} />
        </BarChart>
      </Chart>
      <Chart title="Cost per day" summary={busiest.map((d) => `${d.day}: ${formatCost(d.cost)}`).join("; ") || "No usage."}>
        <BarChart accessibilityLayer={false} data={daily}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="day" fontSize={11} />
          <YAxis ticks={cost.ticks} domain={cost.domain} tickFormatter={cost.format} fontSize={11} width={64} />
          <Tooltip formatter={(v) => formatCost(Number(v))} />
          <Bar dataKey="cost" name="Cost" fill={COST} />
        </BarChart>
      </Chart>
      <TotalsChart title="By member" totals={report.byMember} />
      <TotalsChart title="By model" totals={report.byModel} />
      <TotalsChart title="By provider" totals={report.byProvider} />
    </div>
  );
}
