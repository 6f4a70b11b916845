// A member's own default model in a team: the model their new chats start with (lib/chat/chats.ts).
// Only a model the team may use (enabled, of an enabled provider of the team or the instance's) can
// be chosen; empty means the team's default. Deleting the model clears the choice (a foreign key).
import { z } from "zod";
import { db } from "../db/client";
import { Invalid } from "../errors";
import { isVisibleTo, visibleTo } from "../providers/scope";
import type { TeamContext } from "./team-context";

export const personalModelSchema = z.object({ modelId: z.string().max(64) });

const usableIn = (teamId: string) => ({ enabled: true, provider: { enabled: true, ...visibleTo(teamId) } });

/** The caller's default model in their current team (a Model row id), or null for the team's default. */
export async function personalModelOf(ctx: TeamContext): Promise<string | null> {
  const prisma = await db();
  const membership = await prisma.membership.findUnique({
    where: { teamId_userId: { teamId: ctx.team.id, userId: ctx.user.id } },
    select: { defaultModel: { select: { id: true, enabled: true, provider: { select: { enabled: true, teamId: true } } } } },
  });
  const model = membership?.defaultModel;
  const usable = model && model.enabled && model.provider.enabled && isVisibleTo(model.provider, ctx.team.id);
  return usable ? model.id : null;
}

export async function setPersonalModel(ctx: TeamContext, modelRowId: string): Promise<void> {
  const prisma = await db();
  if (modelRowId && !(await prisma.model.findFirst({ where: { id: modelRowId, ...usableIn(ctx.team.id) }, select: { id: true } }))) {
    throw Invalid("Please correct the highlighted fields.", { modelId: "Choose a model of this team." });
  }
  await prisma.membership.update({
    where: { teamId_userId: { teamId: ctx.team.id, userId: ctx.user.id } },
    data: { defaultModelId: modelRowId || null },
  });
}
