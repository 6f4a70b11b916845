"use server";
// Actions of the signed-in frame: switch team.
import { idField } from "@/lib/validation";
import { defineArgsAction } from "@/app/_server/actions";
import { switchTeam } from "@/app/_server/team-choice";

export const switchTeamAction = defineArgsAction({ args: idField, role: "member" }, async (ctx, teamId) => switchTeam(ctx, teamId));
