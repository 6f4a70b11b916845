import Link from "next/link";
import { AlwaysAllowedList } from "@/components/chat/always-allowed-list";
import { teamPage } from "@/app/_server/page-guards";
import { listAlwaysAllowed } from "@/lib/tools/preferences";
import { parsePeriod, usageReport } from "@/lib/usage/report";
import { UsageTable } from "@/components/usage/usage-table";
import { formatCost, formatTokens } from "@/lib/format/usage";

export const metadata = { title: "Settings" };

export default async function SettingsPage() {
  const ctx = await teamPage("/settings");
  const period = parsePeriod({});
  const [tools, usage] = await Promise.all([listAlwaysAllowed(ctx), usageReport(ctx.team.id, period, ctx.user.id)]);
  return (
    <div className="mx-auto max-w-2xl px-4 pb-10 pt-14 md:pt-6">
      <h1 className="mb-1 text-lg font-semibold">Your settings</h1>
      <p className="mb-6 text-sm text-subtle">
        In {ctx.team.name}. Your own accounts at tool servers are under{" "}
        <Link href="/settings/connections" className="text-accent-text underline">
          Connections
        </Link>
        .
      </p>
      <section aria-labelledby="always-allowed">
        <h2 id="always-allowed" className="mb-2 text-base font-semibold">
          Always allowed tools
        </h2>
        <p className="mb-3 text-sm text-subtle">These tools run without asking you first. Revoke to be asked again.</p>
        <AlwaysAllowedList tools={tools} />
      </section>
      <section aria-labelledby="my-usage" className="mt-8 flex flex-col gap-3">
        <h2 id="my-usage" className="text-base font-semibold">
          Usage
        </h2>
        <p className="text-sm" data-testid="my-usage-summary">
          This month ({period.from} to {period.to}): {formatTokens(usage.total.answers)} answers, {formatTokens(usage.total.tokens)} tokens,{" "}
          {formatCost(usage.total.cost)}.{" "}
          <a href={`/api/usage/export?mine=1&${new URLSearchParams(period)}`} className="underline underline-offset-2" download>
            Export CSV
          </a>
        </p>
        <UsageTable report={usage} showMember={false} />
      </section>
    </div>
  );
}
