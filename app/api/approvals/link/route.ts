// POST {token, approved, reason?, input?}: decides the call of a link in an approval email (the decision
// page, /approvals/link/<token>): as the signed-in approver the link was sent to, or by the link alone
// when the team enabled one-click links. 404 not a link, 401 not signed in, 403 someone else's, 410 used
// or expired, 409 decided already; 400 for an edited input that does not fit (the link still works).
import { handle } from "@/lib/http";
import { decideByLink, linkDecisionSchema } from "@/lib/approvals/link-decisions";
import { continueDecided } from "@/lib/turn/continue-decided";
import { readJson } from "@/lib/security/limits";
import { currentUser } from "@/app/_server/caller";

export const POST = handle(async (req: Request) => {
  const decision = await readJson(req, linkDecisionSchema, 200_000);
  const user = await currentUser();
  const { continues } = await decideByLink(user?.id ?? null, decision, { continueAnswer: continueDecided });
  return Response.json({ ok: true, continues });
});
