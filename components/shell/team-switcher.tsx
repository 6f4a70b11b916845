"use client";
// Chooses the team the user works in. Switching reloads the team's data.
import { useId, useTransition } from "react";
import { useRouter } from "next/navigation";
import type { TeamSummary } from "@/lib/teams/team-context";
import { Label } from "../ui/label";
import { OptionSelect } from "../ui/select";

export function TeamSwitcher({ teams, currentId, onSwitch }: { teams: TeamSummary[]; currentId: string; onSwitch: (teamId: string) => Promise<void> }) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <Label htmlFor={id} className="text-xs tracking-wide text-subtle uppercase">
        Team
      </Label>
      <OptionSelect
        id={id}
        size="sm"
        value={currentId}
        disabled={pending || teams.length < 2}
        aria-busy={pending || undefined}
        options={teams.map((t) => ({ value: t.id, label: `${t.name}${t.role === "admin" ? " (admin)" : ""}` }))}
        onValueChange={(teamId) =>
          start(async () => {
            await onSwitch(teamId);
            router.push("/chat");
            router.refresh();
          })
        }
      />
    </div>
  );
}
