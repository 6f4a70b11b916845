// GET: open invites. POST: create an invite link, emailed when an address is given and email is on.
// Admins only.
import { handle, idParams } from "@/lib/http";
import { readJson } from "@/lib/security/limits";
import { requireAdmin } from "@/app/_server/caller";
import { requestBaseUrl } from "@/lib/email/links";
import { createInvite, createInviteSchema, listOpenInvites } from "@/lib/teams/invites";
import { emailInvite } from "@/lib/teams/link-emails";

type Params = { params: Promise<{ teamId: string }> };

export const GET = handle(async (_req: Request, { params }: Params) => {
  const ctx = await requireAdmin((await idParams(params)).teamId);
  return Response.json({ invites: await listOpenInvites(ctx) });
});

export const POST = handle(async (req: Request, { params }: Params) => {
  const ctx = await requireAdmin((await idParams(params)).teamId);
  const invite = await createInvite(ctx, await readJson(req, createInviteSchema));
  const path = `/invite/${invite.token}`;
  const email = invite.email ? await emailInvite(ctx, { ...invite, email: invite.email }, `${requestBaseUrl(req.headers)}${path}`) : undefined;
  return Response.json(
    { id: invite.id, role: invite.role, expiresAt: invite.expiresAt, path, ...(email && { email: { to: invite.email, ...email } }) },
    { status: 201 },
  );
});
