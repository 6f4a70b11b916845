// POST /api/approvals/link as the decision page calls it (a real session cookie): the approver the link
// was emailed to decides (200), once (410 after); signed out 401, another admin or a member 403, a forged
// token 404, a body of the wrong shape 400, a call decided in the inbox first 409; every refusal leaves
// the call waiting.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

let requestHeaders = new Headers();
vi.mock("next/headers", () => ({
  headers: async () => requestHeaders,
  cookies: async () => ({ get: () => undefined }),
}));

import { signUp } from "@/lib/auth/accounts";
import { decideAsAdmin } from "@/lib/approvals/team-approvals";
import { db } from "@/lib/db/client";
import { createApprovalLink } from "@/lib/notifications/approval-links";
import type { TeamContext } from "@/lib/teams/team-context";
import { APP_BASE, signedInCookie } from "@/test/support/sso-flow";
import { DRIVERS, startTestApp } from "@/test/support/test-app";
import { waitingCall } from "@/test/support/waiting-calls";
import { POST } from "./route";
import { continueDecided } from "@/lib/turn/continue-decided";

const PASSWORD = "correct horse battery staple 42";
let stop: () => Promise<void>;
const as: Record<"approver" | "otherAdmin" | "member" | "nobody", Headers> = {} as never;
const ids: Record<string, string> = {};
let teamId = "";

async function sessionOf(email: string): Promise<Headers> {
  return new Headers({ cookie: await signedInCookie(email, PASSWORD), origin: APP_BASE });
}

async function post(who: keyof typeof as, body: unknown): Promise<Response> {
  requestHeaders = as[who];
  return POST(
    new Request(`${APP_BASE}/api/approvals/link`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: APP_BASE },
      body: typeof body === "string" ? body : JSON.stringify(body),
    }),
  );
}

/** A call waiting for an admin beside another one of the same answer (so a decision never starts a continuation), and the approver's link to it. */
async function linkedCall() {
  const call = await waitingCall(teamId, ids.member);
  const prisma = await db();
  const block = await prisma.block.findUniqueOrThrow({ where: { approvalId: call.approvalId } });
  await prisma.block.create({
    data: {
      messageId: block.messageId,
      ordinal: 1,
      kind: "tool",
      status: "approval-requested",
      toolName: "Billing__refund",
      approvalId: `${call.approvalId}_2`,
      approvalBy: "admin",
    },
  });
  const token = await createApprovalLink(prisma, { teamId, approvalId: call.approvalId, userId: ids.approver });
  return { ...call, token };
}
const statusOf = async (approvalId: string) => (await (await db()).block.findUniqueOrThrow({ where: { approvalId } })).status;

beforeAll(async () => {
  ({ stop } = await startTestApp(DRIVERS[0]));
  for (const who of ["approver", "otherAdmin", "member"])
    ids[who] = (await signUp({ name: who, email: `link-${who}@example.com`, password: PASSWORD }, new Headers())).userId;
  const prisma = await db();
  teamId = (await prisma.team.create({ data: { name: "Links" } })).id;
  await prisma.membership.createMany({
    data: [
      { teamId, userId: ids.approver, role: "admin" },
      { teamId, userId: ids.otherAdmin, role: "admin" },
      { teamId, userId: ids.member, role: "member" },
    ],
  });
  for (const who of ["approver", "otherAdmin", "member"] as const) as[who] = await sessionOf(`link-${who}@example.com`);
  as.nobody = new Headers({ origin: APP_BASE });
}, 180_000);
afterAll(async () => stop?.());

describe("POST /api/approvals/link", () => {
  it("refuses everyone but the approver, forged tokens and malformed bodies, with the call still waiting", async () => {
    const call = await linkedCall();
    expect((await post("nobody", { token: call.token, approved: true })).status).toBe(401);
    expect((await post("otherAdmin", { token: call.token, approved: true })).status).toBe(403);
    expect((await post("member", { token: call.token, approved: true })).status).toBe(403);
    expect((await post("approver", { token: "A".repeat(43), approved: true })).status).toBe(404);
    expect((await post("approver", { token: call.token, approved: "yes" })).status).toBe(400);
    expect((await post("approver", { token: call.token, approved: true, extra: 1 })).status).toBe(400);
    expect((await post("approver", "{not json")).status).toBe(400);
    expect(await statusOf(call.approvalId)).toBe("approval-requested");
  });

  it("the approver decides once; the same link again is 410", async () => {
    const call = await linkedCall();
    const res = await post("approver", { token: call.token, approved: false, reason: "too much" });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, continues: false });
    expect(await statusOf(call.approvalId)).toBe("approval-responded");
    const again = await post("approver", { token: call.token, approved: true });
    expect(again.status).toBe(410);
    expect(((await again.json()) as { error: { message: string } }).error.message).toMatch(/used already/);
  });

  it("a call decided in the inbox first is 409", async () => {
    const call = await linkedCall();
    const team = { id: teamId, name: "Links", role: "admin" as const };
    const other: TeamContext = { user: { id: ids.otherAdmin, name: "otherAdmin", email: "link-otheradmin@example.com" }, team, teams: [team] };
    await decideAsAdmin(other, { approvalId: call.approvalId, approved: true }, { continueAnswer: continueDecided });
    expect((await post("approver", { token: call.token, approved: false })).status).toBe(409);
  });
});
