// Deciding from a link in an approval email (lib/notifications/approval-links.ts): the call as the
// inbox shows it, and the decision — Approve, Deny with a reason, Edit and approve — made as the link's
// approver through decideAsAdmin (so the member's answer goes on by itself), audited with `via: "link"`.
// The link is claimed before the decision and works once; an edited input that does not fit gives it
// back (nothing was decided). Every refusal is a 4xx that changes nothing.
import { z } from "zod";
import { db } from "../db/client";
import { AppError, Invalid } from "../errors";
import { checkApprovalLink, claimApprovalLink, linkRefusal, releaseApprovalLink, type UsableLink } from "../notifications/approval-links";
import { teamsOf } from "../teams/context";
import type { TeamContext } from "../teams/team-context";
import { editedInputSchema } from "./edited-input";
import { decideAsAdmin, waitingItem, type DecideOptions, type InboxItem } from "./team-approvals";

export const linkDecisionSchema = z
  .object({
    token: z.string().min(1).max(200),
    approved: z.boolean(),
    reason: z.string().trim().max(1000, "At most 1000 characters.").optional(),
    input: editedInputSchema.optional(),
  })
  .strict();
export type LinkDecision = z.infer<typeof linkDecisionSchema>;

async function usable(token: string, callerId: string | null): Promise<UsableLink> {
  const check = await checkApprovalLink(token, callerId);
  if (!check.ok) throw check.error;
  return check.link;
}

/** The approver's context in the link's team (they are its admin: checkApprovalLink made sure). */
async function approverContext(link: UsableLink): Promise<TeamContext> {
  const prisma = await db();
  const user = await prisma.user.findUnique({ where: { id: link.userId }, select: { id: true, name: true, email: true } });
  const teams = await teamsOf(link.userId);
  const team = teams.find((t) => t.id === link.teamId);
  if (!user || team?.role !== "admin") throw linkRefusal("not-admin");
  return { user, team, teams };
}

export type LinkCard = { item: InboxItem; approver: string; oneClick: boolean; expiresAt: string };

/** What the decision page shows for a usable link (or the refusal, as an AppError). */
export async function linkCard(token: string, callerId: string | null): Promise<LinkCard> {
  const link = await usable(token, callerId);
  const item = await waitingItem(link.teamId, link.approvalId);
  if (!item) throw linkRefusal("decided");
  const ctx = await approverContext(link);
  return { item, approver: ctx.user.name, oneClick: link.oneClick, expiresAt: link.expiresAt.toISOString() };
}

/** Decides the link's call as its approver; the link is used up, unless the edited input was refused. */
export async function decideByLink(
  callerId: string | null,
  d: LinkDecision,
  opts: Pick<DecideOptions, "continueAnswer">,
): Promise<{ continues: boolean; done?: Promise<boolean>; approvalId: string }> {
  if (d.input !== undefined && !d.approved) throw Invalid("Only an approval can change the input.");
  const link = await usable(d.token, callerId);
  const ctx = await approverContext(link);
  const claimedAt = new Date();
  if (!(await claimApprovalLink(link.id, claimedAt))) throw linkRefusal("used");
  try {
    const result = await decideAsAdmin(ctx, { approvalId: link.approvalId, approved: d.approved, reason: d.reason, input: d.input }, { ...opts, via: "link" });
    return { ...result, approvalId: link.approvalId };
  } catch (err) {
    if (err instanceof AppError && err.status === 409) throw linkRefusal("decided");
    await releaseApprovalLink(link.id, claimedAt);
    throw err;
  }
}
