// Deciding from a link in an approval email, on a real database: the approver the link was sent to sees
// the call as the inbox shows it and decides it (the member's answer goes on, the decision is audited
// with via "link"); the link never works twice, for anyone else (another admin, a member, nobody signed
// in), once the call was decided elsewhere, after it expired (24 hours, or the call's time limit), or
// when forged; each refusal changes nothing. A team's one-click links decide without signing in, still
// once. An edited input that does not fit is refused and the link still works; one that fits runs.
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../db/client";
import { createApprovalLink, LINK_TTL_MS } from "../notifications/approval-links";
import { DATABASES, rejection, startTestApp } from "@/test/support/test-app";
import { approvalsTeam, waitingCall } from "@/test/support/waiting-calls";
import { decideByLink, linkCard } from "./link-decisions";
import { decideAsAdmin } from "./team-approvals";

describe.each(DATABASES)("approval links on $name", (driver) => {
  let stop: () => Promise<void>;
  beforeAll(async () => {
    ({ stop } = await startTestApp(driver));
  }, 180_000);
  afterAll(async () => stop?.());

  /** A waiting call and a link to it for the team's first admin; `continued` lists the chats whose answer went on. */
  async function linked(opts: { deadline?: Date; now?: Date } = {}) {
    const t = await approvalsTeam(2);
    const call = await waitingCall(t.team.id, t.member.id, { deadline: opts.deadline, toolId: t.tool.id });
    const token = await createApprovalLink(
      await db(),
      { teamId: t.team.id, approvalId: call.approvalId, userId: t.admins[0].id, deadline: opts.deadline },
      opts.now,
    );
    const continued: string[] = [];
    const continueAnswer = async (chatId: string) => {
      continued.push(chatId);
      return true;
    };
    return { ...t, call, token, continued, continueAnswer };
  }

  const blockOf = async (approvalId: string) => (await db()).block.findUniqueOrThrow({ where: { approvalId } });
  const linkOf = async (token: string) =>
    (await db()).approvalLink.findUniqueOrThrow({ where: { tokenHash: crypto.createHash("sha256").update(token).digest("hex") } });

  it("the approver sees the inbox's card, approves, the answer goes on, and the audit says it came from a link", async () => {
    const s = await linked();
    const card = await linkCard(s.token, s.admins[0].id);
    expect(card.item).toMatchObject({
      approvalId: s.call.approvalId,
      member: "Maria Member",
      question: "Refund order 42 please",
      input: { order: 42, amount: 19.5 },
    });
    expect(card.item.tool.label).toBe("Billing · refund");
    expect(card.approver).toBe("Admin 1");

    const res = await decideByLink(s.admins[0].id, { token: s.token, approved: true }, { continueAnswer: s.continueAnswer });
    expect(res.continues).toBe(true);
    expect(s.continued).toEqual([s.call.chatId]);
    const block = await blockOf(s.call.approvalId);
    expect(block).toMatchObject({ status: "approval-responded", approved: true, decidedById: s.admins[0].id });
    const events = await (await db()).auditEvent.findMany({ where: { teamId: s.team.id, action: "tool.approve" } });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actorId: s.admins[0].id, data: expect.objectContaining({ via: "link", chatId: s.call.chatId }) });
    expect((await linkOf(s.token)).usedAt).not.toBeNull();
  });

  it("a used link is refused (410) and changes nothing: no second decision, even a different one", async () => {
    const s = await linked();
    await decideByLink(s.admins[0].id, { token: s.token, approved: false, reason: "not today" }, { continueAnswer: s.continueAnswer });
    const again = await rejection(decideByLink(s.admins[0].id, { token: s.token, approved: true }, { continueAnswer: s.continueAnswer }));
    expect(again.status).toBe(410);
    expect(again.message).toMatch(/used already/);
    expect((await rejection(linkCard(s.token, s.admins[0].id))).status).toBe(410);
    expect(await blockOf(s.call.approvalId)).toMatchObject({ approved: false, decisionReason: "not today" });
    expect(s.continued).toHaveLength(1);
  });

  it("someone else cannot use it: another admin 403, a member 403, nobody signed in 401; the call still waits and the link still works", async () => {
    const s = await linked();
    for (const [caller, status] of [
      [s.admins[1].id, 403],
      [s.member.id, 403],
      [null, 401],
    ] as const) {
      expect((await rejection(linkCard(s.token, caller))).status).toBe(status);
      expect((await rejection(decideByLink(caller, { token: s.token, approved: true }, { continueAnswer: s.continueAnswer }))).status).toBe(status);
    }
    expect((await blockOf(s.call.approvalId)).status).toBe("approval-requested");
    expect((await linkOf(s.token)).usedAt).toBeNull();
    await decideByLink(s.admins[0].id, { token: s.token, approved: true }, { continueAnswer: s.continueAnswer });
    expect((await blockOf(s.call.approvalId)).approved).toBe(true);
  });

  it("an approver who is no longer an admin is refused (403)", async () => {
    const s = await linked();
    await (await db()).membership.update({ where: { teamId_userId: { teamId: s.team.id, userId: s.admins[0].id } }, data: { role: "member" } });
    expect((await rejection(decideByLink(s.admins[0].id, { token: s.token, approved: true }, { continueAnswer: s.continueAnswer }))).status).toBe(403);
    expect((await blockOf(s.call.approvalId)).status).toBe("approval-requested");
  });

  it("once another admin decided the call in the inbox, the link says so (409) and changes nothing", async () => {
    const s = await linked();
    await decideAsAdmin(
      s.ctxOf(s.admins[1], "admin"),
      { approvalId: s.call.approvalId, approved: false, reason: "inbox first" },
      { continueAnswer: s.continueAnswer },
    );
    const refused = await rejection(decideByLink(s.admins[0].id, { token: s.token, approved: true }, { continueAnswer: s.continueAnswer }));
    expect(refused.status).toBe(409);
    expect(refused.message).toMatch(/already decided/);
    expect(await blockOf(s.call.approvalId)).toMatchObject({ approved: false, decisionReason: "inbox first", decidedById: s.admins[1].id });
  });

  it("an expired link is refused (410): after 24 hours, or at the call's own deadline when sooner", async () => {
    const old = await linked({ now: new Date(Date.now() - LINK_TTL_MS - 60_000) });
    const refused = await rejection(decideByLink(old.admins[0].id, { token: old.token, approved: true }, { continueAnswer: old.continueAnswer }));
    expect(refused.status).toBe(410);
    expect(refused.message).toMatch(/expired/);
    expect((await blockOf(old.call.approvalId)).status).toBe("approval-requested");

    const deadline = new Date(Date.now() + 10 * 60_000);
    const soon = await linked({ deadline });
    expect((await linkOf(soon.token)).expiresAt.getTime()).toBe(deadline.getTime());
  });

  it("a forged, altered or malformed token is not a link (404)", async () => {
    const s = await linked();
    const altered = s.token.slice(0, -1) + (s.token.endsWith("A") ? "B" : "A");
    for (const token of [crypto.randomBytes(32).toString("base64url"), altered, "not-a-token", "../../admin", "x".repeat(200)]) {
      expect((await rejection(decideByLink(s.admins[0].id, { token, approved: true }, { continueAnswer: s.continueAnswer }))).status).toBe(404);
    }
    expect((await blockOf(s.call.approvalId)).status).toBe("approval-requested");
  });

  it("with one-click links on, the link alone decides as its approver, once", async () => {
    const s = await linked();
    await (await db()).team.update({ where: { id: s.team.id }, data: { oneClickApprovalLinks: true } });
    expect((await linkCard(s.token, null)).oneClick).toBe(true);
    await decideByLink(null, { token: s.token, approved: true }, { continueAnswer: s.continueAnswer });
    expect(await blockOf(s.call.approvalId)).toMatchObject({ approved: true, decidedById: s.admins[0].id });
    expect((await rejection(decideByLink(null, { token: s.token, approved: true }, { continueAnswer: s.continueAnswer }))).status).toBe(410);
  });

  it("Edit and approve: an input that does not fit is refused (400) and the link still works; one that fits runs as edited", async () => {
    const s = await linked();
    const bad = await rejection(decideByLink(s.admins[0].id, { token: s.token, approved: true, input: { order: "x" } }, { continueAnswer: s.continueAnswer }));
    expect(bad.status).toBe(400);
    expect((await linkOf(s.token)).usedAt).toBeNull();
    await decideByLink(s.admins[0].id, { token: s.token, approved: true, input: { order: 42, amount: 5 } }, { continueAnswer: s.continueAnswer });
    expect(await blockOf(s.call.approvalId)).toMatchObject({ approved: true, input: { order: 42, amount: 5 }, originalInput: { order: 42, amount: 19.5 } });
    const edit = await (await db()).auditEvent.findFirstOrThrow({ where: { teamId: s.team.id, action: "tool.edit" } });
    expect(edit.data).toMatchObject({ via: "link" });
  });
});
