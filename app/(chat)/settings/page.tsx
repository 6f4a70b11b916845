import Link from "next/link";
import { AlwaysAllowedList } from "@/components/chat/always-allowed-list";
import { teamPage } from "@/lib/teams/page-guards";
import { listAlwaysAllowed } from "@/lib/tools/preferences";

export const metadata = { title: "Settings" };

export default async function SettingsPage() {
  const ctx = await teamPage("/settings");
  const tools = await listAlwaysAllowed(ctx);
  return (
    <div className="mx-auto max-w-2xl px-4 pb-10 pt-14 md:pt-6">
      <h1 className="mb-1 text-lg font-semibold">Your settings</h1>
      <p className="mb-6 text-sm text-zinc-600 dark:text-zinc-400">
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
        <p className="mb-3 text-sm text-zinc-600 dark:text-zinc-400">These tools run without asking you first. Revoke to be asked again.</p>
        <AlwaysAllowedList tools={tools} />
      </section>
    </div>
  );
}
