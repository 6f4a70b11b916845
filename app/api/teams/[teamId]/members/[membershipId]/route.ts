// PATCH: change a member's role. DELETE: remove a member. Admins only; the last admin stays.
import { z } from "zod";
import { handle, idParams } from "@/lib/http";
import { readJson } from "@/lib/security/limits";
import { requireAdmin } from "@/app/_server/caller";
import { changeRole, changeRoleSchema, removeMember } from "@/lib/teams/members";

type Params = { params: Promise<{ teamId: string; membershipId: string }> };

export const PATCH = handle(async (req: Request, { params }: Params) => {
  const { teamId, membershipId } = await idParams(params);
  const ctx = await requireAdmin(teamId);
  const { role } = await readJson(req, z.object({ role: changeRoleSchema.shape.role }));
  await changeRole(ctx, membershipId, role);
  return Response.json({ ok: true });
});

export const DELETE = handle(async (_req: Request, { params }: Params) => {
  const { teamId, membershipId } = await idParams(params);
  await removeMember(await requireAdmin(teamId), membershipId);
  return Response.json({ ok: true });
});
