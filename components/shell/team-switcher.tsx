"use client";
// Chooses the team the user works in. Switching reloads the team's data.
import { useTransition } from "react";
import { useRouter } from "next/navigation";
import type { TeamSummary } from "@/lib/teams/context";

export function TeamSwitcher({ teams, currentId, onSwitch }: { teams: TeamSummary[]; currentId: string; onSwitch: (teamId: string) => Promise<void> }) {
  const router = useRouter();
  const [pending, start] = useTransition();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor="team-switcher" className="text-xs font-medium uppercase tracking-wide text-zinc-500">
        Team
      </label>
      <select
        id="team-switcher"
        value={currentId}
        disabled={pending || teams.length < 2}
        aria-busy={pending || undefined}
        onChange={(e) => {
          const id = e.target.value;
          start(async () => {
            await onSwitch(id);
            router.push("/chat");
            router.refresh();
          });
        }}
        className="h-9 rounded-md border border-zinc-300 bg-white px-2 text-sm dark:border-zinc-700 dark:bg-zinc-900"
      >
        {teams.map((t) => (
          <option key={t.id} value={t.id}>
            {t.name}
            {t.role === "admin" ? " (admin)" : ""}
          </option>
        ))}
      </select>
    </div>
  );
}
