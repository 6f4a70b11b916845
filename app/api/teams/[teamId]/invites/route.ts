// GET: open invites. POST: create an invite link. Admins only.
import { handle, idParams } from "@/lib/http";
import { readJson } from "@/lib/security/limits";
import { requireAdmin } from "@/app/_server/caller";
import { createInvite, createInviteSchema, listOpenInvites } from "@/lib/teams/invites";

type Params = { params: Promise<{ teamId: string }> };

export const GET = handle(async (_req: Request, { params }: Params) => {
  const ctx = await requireAdmin((await idParams(params)).teamId);
  return Response.json({ invites: await listOpenInvites(ctx) });
});

export const POST = handle(async (req: Request, { params }: Params) => {
  const ctx = await requireAdmin((await idParams(params)).teamId);
  const invite = await createInvite(ctx, await readJson(req, createInviteSchema));
  return Response.json({ id: invite.id, role: invite.role, expiresAt: invite.expiresAt, path: `/invite/${invite.token}` }, { status: 201 });
});
