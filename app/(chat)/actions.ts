"use server";
// Actions of the signed-in frame: switch team.
import { checkArgs, interrupts } from "@/lib/actions";
import { switchTeam } from "@/lib/teams/switch";
import { idField } from "@/lib/validation";

export async function switchTeamAction(teamId: string): Promise<void> {
  const id = checkArgs(idField, teamId);
  await interrupts(() => switchTeam(id));
}
