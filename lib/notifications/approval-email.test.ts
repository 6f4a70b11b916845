// The approval email channel against a real SMTP server on loopback and a real database: a call waiting
// for an admin reaches each approver at once, naming the tool, who asked, the chat and the team, with the
// arguments' secrets masked and a decision link of their own that opens the call; further requests within
// a few minutes of a person's last email wait and go out as one digest, without the ones decided
// meanwhile; the named approvers of a server are the only ones asked (all admins if none of them still
// is); a person who turned the emails off gets none; an event delivered twice sends one email; without
// SMTP nothing is queued; a server that refuses keeps the request and a later round sends it; a member
// who asked for it hears that their call was decided.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "../db/client";
import { linkCard } from "../approvals/link-decisions";
import { DATABASES, startTestApp } from "@/test/support/test-app";
import { startSmtpServer, type TestSmtpServer } from "@/test/support/smtp-server";
import { approvalsTeam, requestedEvent, waitingCall } from "@/test/support/waiting-calls";
import { approvalEmailChannel, approvalEmailsSettled, DIGEST_WINDOW_MS, sendDueApprovalEmails } from "./approval-email";
import { setServerApprovers } from "./approvers";
import { setNotificationChoices } from "./preferences";
import type { ApprovalDecided, StoredTeamEvent } from "./team-events";

describe.each(DATABASES)("approval emails on $name", (driver) => {
  let stop: () => Promise<void>;
  let smtp: TestSmtpServer;
  let refusing: TestSmtpServer;
  beforeAll(async () => {
    ({ stop } = await startTestApp(driver));
    smtp = await startSmtpServer();
    refusing = await startSmtpServer({ refuse: true });
  }, 180_000);
  afterAll(async () => {
    await approvalEmailsSettled();
    await smtp?.close();
    await refusing?.close();
    await stop?.();
  });
  const emailOn = (server = smtp) => {
    vi.stubEnv("SMTP_URL", server.url);
    vi.stubEnv("SMTP_FROM", "Parley <parley@example.test>");
    vi.stubEnv("PARLEY_URL", "https://parley.example.test");
  };
  afterEach(async () => {
    await approvalEmailsSettled();
    vi.unstubAllEnvs();
  });

  /** Delivers the events as the dispatcher does and waits for the round of sending it started. */
  async function deliver(...events: StoredTeamEvent[]) {
    await approvalEmailChannel.deliver(events);
    await approvalEmailsSettled();
  }
  const decidedEvent = (
    teamId: string,
    call: { approvalId: string; chatId: string },
    by: { id: string; name: string; email: string },
  ): StoredTeamEvent & ApprovalDecided => ({
    id: `ev_d_${call.approvalId}`,
    at: new Date().toISOString(),
    kind: "approval.decided",
    teamId,
    approvalId: call.approvalId,
    chatId: call.chatId,
    outcome: "approved",
    by,
    via: "inbox",
    reason: null,
  });
  const linkToken = (url: string) => new URL(url).pathname.replace("/approvals/link/", "");
  const decisionLinks = (links: string[]) => links.filter((l) => l.startsWith("https://parley.example.test/approvals/link/"));

  it("a waiting call emails every admin at once: tool, who asked, chat, team, masked arguments, and a link of their own", async () => {
    emailOn();
    const t = await approvalsTeam(2);
    const call = await waitingCall(t.team.id, t.member.id, { input: { order: 42, apiKey: "sk-live-abcdef123456", note: "urgent" }, title: "Refund for ACME" });
    await deliver(requestedEvent(t.team.id, call, t.member, t.server.id));
    for (const admin of t.admins) {
      const m = await smtp.waitFor((x) => x.to.includes(admin.email));
      expect(m.subject).toBe("Approval needed: Billing · refund for Maria Member");
      for (const body of [m.text, m.html]) {
        expect(body).toContain(`Hello ${admin.name}`);
        expect(body).toContain(t.member.email);
        expect(body).toContain(t.team.name);
        expect(body).toMatch(/Refund for ACME/);
        expect(body).toContain("urgent");
        expect(body).toContain("••••");
        expect(body).not.toContain("sk-live-abcdef123456");
      }
      const links = decisionLinks(m.links);
      expect(links).toHaveLength(1);
      // The link opens this call for this admin (and for nobody else: link-decisions.test.ts).
      expect((await linkCard(linkToken(links[0]), admin.id)).item.approvalId).toBe(call.approvalId);
    }
    // Two admins, two different links.
    const [a, b] = t.admins.map((admin) => decisionLinks(smtp.to(admin.email)[0].links)[0]);
    expect(a).not.toBe(b);
  });

  it("further requests within the window are gathered into one digest when it ends, without those decided meanwhile", async () => {
    emailOn();
    const t = await approvalsTeam(1);
    const [admin] = t.admins;
    const first = await waitingCall(t.team.id, t.member.id);
    await deliver(requestedEvent(t.team.id, first, t.member, t.server.id));
    await smtp.waitFor((x) => x.to.includes(admin.email));

    const calls = [await waitingCall(t.team.id, t.member.id), await waitingCall(t.team.id, t.member.id), await waitingCall(t.team.id, t.member.id)];
    await deliver(...calls.map((c) => requestedEvent(t.team.id, c, t.member, t.server.id)));
    expect(smtp.to(admin.email)).toHaveLength(1);
    // The third is decided (in the inbox, say) before the window ends: it leaves the digest.
    await (await db()).block.update({ where: { approvalId: calls[2].approvalId }, data: { status: "approval-responded", approved: true } });
    await deliver(decidedEvent(t.team.id, calls[2], t.admins[0]));
    expect(await sendDueApprovalEmails(new Date())).toBe(0);
    expect(smtp.to(admin.email)).toHaveLength(1);

    expect(await sendDueApprovalEmails(new Date(Date.now() + DIGEST_WINDOW_MS + 1_000))).toBe(1);
    const digest = smtp.to(admin.email)[1];
    expect(digest.subject).toBe("2 tool calls wait for your approval");
    expect(digest.text).toContain(calls[0].chatTitle);
    expect(digest.text).toContain(calls[1].chatTitle);
    expect(digest.text).not.toContain(calls[2].chatTitle);
    const tokens = decisionLinks(digest.links).map(linkToken);
    expect(tokens).toHaveLength(2);
    expect((await Promise.all(tokens.map((tok) => linkCard(tok, admin.id)))).map((c) => c.item.approvalId)).toEqual([calls[0].approvalId, calls[1].approvalId]);
  });

  it("only a server's named approvers are asked, unless none of them is an admin any more; a person who turned it off gets nothing", async () => {
    emailOn();
    const t = await approvalsTeam(3);
    const [a1, a2, a3] = t.admins;
    await setServerApprovers(t.ctxOf(a1, "admin"), t.server.id, [a2.id, a3.id]);
    const audited = await (await db()).auditEvent.findFirstOrThrow({ where: { teamId: t.team.id, action: "mcp.server.approvers" } });
    expect(audited).toMatchObject({ actorId: a1.id, data: { server: "Billing", approvers: [a2.name, a3.name] } });
    await setNotificationChoices(a3.id, { approvalRequests: false, ownCallsDecided: false });
    const call = await waitingCall(t.team.id, t.member.id);
    await deliver(requestedEvent(t.team.id, call, t.member, t.server.id));
    await smtp.waitFor((x) => x.to.includes(a2.email));
    expect(smtp.to(a1.email)).toHaveLength(0);
    expect(smtp.to(a3.email)).toHaveLength(0);

    // Both named approvers stop being admins: every admin is asked (a call must reach someone).
    const prisma = await db();
    await prisma.membership.updateMany({ where: { teamId: t.team.id, userId: { in: [a2.id, a3.id] } }, data: { role: "member" } });
    const next = await waitingCall(t.team.id, t.member.id);
    await deliver(requestedEvent(t.team.id, next, t.member, t.server.id));
    await smtp.waitFor((x) => x.to.includes(a1.email));
  });

  it("an event delivered again sends no second email; without SMTP nothing is queued", async () => {
    emailOn();
    const t = await approvalsTeam(1);
    const call = await waitingCall(t.team.id, t.member.id);
    const event = requestedEvent(t.team.id, call, t.member, t.server.id);
    await deliver(event);
    await deliver(event);
    await smtp.waitFor((x) => x.to.includes(t.admins[0].email));
    expect(await (await db()).approvalEmail.count({ where: { approvalId: call.approvalId } })).toBe(1);

    vi.unstubAllEnvs();
    vi.stubEnv("SMTP_URL", "");
    vi.stubEnv("SMTP_HOST", "");
    const quiet = await approvalsTeam(1);
    const other = await waitingCall(quiet.team.id, quiet.member.id);
    await deliver(requestedEvent(quiet.team.id, other, quiet.member, quiet.server.id));
    expect(await (await db()).approvalEmail.count({ where: { approvalId: other.approvalId } })).toBe(0);
  });

  it("a server that refuses the mail keeps the request, and a later round sends it", async () => {
    emailOn(refusing);
    const t = await approvalsTeam(1);
    const call = await waitingCall(t.team.id, t.member.id);
    await deliver(requestedEvent(t.team.id, call, t.member, t.server.id));
    const row = await (await db()).approvalEmail.findFirstOrThrow({ where: { approvalId: call.approvalId } });
    expect(row).toMatchObject({ sentAt: null, droppedAt: null, attempts: 1 });
    expect(row.lastError).toMatch(/refused|554/i);

    emailOn(smtp);
    // The retry waits for its backoff; a round after it sends the request.
    expect(await sendDueApprovalEmails(new Date(row.claimedUntil!.getTime() + 1))).toBe(1);
    const m = await smtp.waitFor((x) => x.to.includes(t.admins[0].email));
    expect(m.subject).toContain("Billing · refund");
  });

  it("a member who asked for it is told when an admin decided their call", async () => {
    emailOn();
    const t = await approvalsTeam(1);
    await setNotificationChoices(t.member.id, { approvalRequests: true, ownCallsDecided: true });
    const call = await waitingCall(t.team.id, t.member.id, { title: "Quarterly refunds" });
    await deliver(decidedEvent(t.team.id, call, t.admins[0]));
    const m = await smtp.waitFor((x) => x.to.includes(t.member.email));
    expect(m.subject).toBe("Your call Billing · refund was approved");
    expect(m.text).toContain("Quarterly refunds");
    expect(m.text).toContain(`by ${t.admins[0].name}`);
    expect(m.links).toContain(`https://parley.example.test/chat/${call.chatId}`);
  });
});
