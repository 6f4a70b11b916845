// Webhooks against a real HTTP receiver on loopback, with the server's own dispatcher and sender
// running (real database): an admin adds a webhook and its receiver gets the events it asked for,
// signed with the secret shown once (verified as docs/api.md tells receivers), in Parley's JSON or as a
// Slack-compatible message; a failing receiver is retried with growing delays while the events behind
// it wait, so it gets them in order; each delivery is listed with its status, tries and last answer; a
// receiver that never answers does not slow a member's turn; the URL goes through the address policy.
import type { LLMock } from "@copilotkit/aimock";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../db/client";
import { closeAll } from "../mcp/pool";
import { probeServer } from "../mcp/probe";
import type { TeamContext } from "../teams/team-context";
import { DATABASES, runTurn, storedTurn, turnHarness } from "@/test/support/turn-harness";
import { makeUser, rejection } from "@/test/support/test-app";
import { readChunks, storedAnswer, teamWithProvider } from "@/test/support/test-turns";
import { startTestServer, type RunningServer } from "@/test/support/test-servers";
import { startWebhookReceiver, verifySignature, type WebhookReceiver } from "@/test/support/webhook-receiver";
import { recordTeamEvent } from "./events";
import type { TeamEvent } from "./team-events";
import { startWebhookSender } from "./webhook-sender";
import { createWebhook, listWebhooks, setWebhookEnabled, type WebhookInput } from "./webhooks";

let mock: LLMock;
let server: RunningServer;
let receiver: WebhookReceiver;
beforeAll(async () => {
  server = await startTestServer();
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver?.stop();
  await closeAll();
  await server?.stop();
});

const joined = (teamId: string, name: string): TeamEvent => ({
  kind: "member.joined",
  teamId,
  role: "member",
  member: { id: `u-${name}`, name, email: `${name.toLowerCase()}@example.com` },
});

describe.each(DATABASES)("webhooks on $name", (driver) => {
  turnHarness((m) => (mock = m), { driver });

  async function adminTeam() {
    return (await teamWithProvider(mock.url, "openai_chat")).ctx;
  }
  async function hook(admin: TeamContext, input: Partial<WebhookInput> = {}) {
    return createWebhook(admin, { name: "Ops", url: receiver.url, format: "parley", events: ["member.joined"], ...input });
  }
  async function delivered(admin: TeamContext) {
    return (await listWebhooks(admin))[0].deliveries;
  }

  it("sends the events a webhook asked for, signed with the secret shown once, and lists each delivery", async () => {
    const admin = await adminTeam();
    const { secret, id } = await hook(admin);
    expect(secret).toMatch(/^whsec_/);
    const prisma = await db();
    expect((await prisma.webhook.findUniqueOrThrow({ where: { id } })).secretEnc).not.toContain(secret);
    expect(JSON.stringify(await listWebhooks(admin))).not.toContain(secret);
    const before = receiver.received.length;
    await recordTeamEvent(prisma, {
      kind: "budget.warning",
      teamId: admin.team.id,
      budgetId: "b",
      scope: "team",
      metric: "cost",
      used: 8,
      limit: 10,
      member: null,
      model: null,
      period: "2026-11-01",
      resetsAt: "2026-12-01T00:00:00.000Z",
    });
    await recordTeamEvent(prisma, joined(admin.team.id, "Ada"));
    await expect.poll(async () => (await delivered(admin)).map((d) => d.status), { timeout: 10_000 }).toEqual(["delivered"]);
    const [d] = await delivered(admin);
    expect(d).toMatchObject({ kind: "member.joined", attempts: 1, lastStatus: 200, lastError: null });
    const got = receiver.received.slice(before).filter((r) => r.headers["parley-delivery"] === d.id);
    expect(got).toHaveLength(1);
    expect(verifySignature(secret, got[0].headers["parley-signature"], got[0].body)).toBe(true);
    expect(verifySignature("whsec_wrong", got[0].headers["parley-signature"], got[0].body)).toBe(false);
    expect(got[0].headers["parley-event"]).toBe("member.joined");
    const body = JSON.parse(got[0].body);
    expect(body).toMatchObject({ kind: "member.joined", teamId: admin.team.id, member: { name: "Ada", email: "ada@example.com" }, role: "member" });
    expect(got[0].headers["parley-event-id"]).toBe(body.id);
    // The budget warning was not asked for: no delivery, nothing sent.
    expect(receiver.received.slice(before).some((r) => r.body.includes("budget"))).toBe(false);
  });

  it("sends a Slack-compatible message when that format is chosen", async () => {
    const admin = await adminTeam();
    await hook(admin, { format: "slack" });
    const before = receiver.received.length;
    await recordTeamEvent(await db(), joined(admin.team.id, "Grace"));
    await expect.poll(async () => (await delivered(admin))[0]?.status, { timeout: 10_000 }).toBe("delivered");
    const [d] = await delivered(admin);
    const got = receiver.received.slice(before).find((r) => r.headers["parley-delivery"] === d.id)!;
    expect(JSON.parse(got.body)).toEqual({ text: "Grace (grace@example.com) joined the team as member." });
  });

  it("retries a failing receiver with growing delays, and the events behind it wait and arrive in order", async () => {
    const admin = await adminTeam();
    await hook(admin);
    const prisma = await db();
    receiver.script(500, 503);
    const before = receiver.received.length;
    for (const name of ["One", "Two", "Three"]) await recordTeamEvent(prisma, joined(admin.team.id, name));
    const first = async () => (await delivered(admin)).at(-1)!;
    await expect.poll(async () => (await first()).attempts, { timeout: 10_000 }).toBe(1);
    const d1 = await first();
    expect(d1).toMatchObject({ status: "pending", lastStatus: 500, lastError: "HTTP 500" });
    const wait1 = new Date(d1.nextAttemptAt!).getTime() - Date.now();
    expect(wait1).toBeGreaterThan(10_000);
    // Time passes (the retry is due now).
    await prisma.webhookDelivery.updateMany({ where: { id: d1.id }, data: { nextAttemptAt: new Date() } });
    await expect.poll(async () => (await first()).attempts, { timeout: 10_000 }).toBe(2);
    const d2 = await first();
    expect(d2).toMatchObject({ status: "pending", lastStatus: 503 });
    expect(new Date(d2.nextAttemptAt!).getTime() - Date.now()).toBeGreaterThan(wait1 + 5_000);
    expect(receiver.received.slice(before).map((r) => JSON.parse(r.body).member.name)).toEqual(["One", "One"]);
    await prisma.webhookDelivery.updateMany({ where: { id: d1.id }, data: { nextAttemptAt: new Date() } });
    await expect.poll(async () => (await delivered(admin)).map((d) => d.status), { timeout: 10_000 }).toEqual(["delivered", "delivered", "delivered"]);
    expect(receiver.received.slice(before).map((r) => JSON.parse(r.body).member.name)).toEqual(["One", "One", "One", "Two", "Three"]);
    expect(await first()).toMatchObject({ attempts: 3, lastStatus: 200 });
  });

  it("sends each delivery once, in order, while two instances send at the same time", async () => {
    const admin = await adminTeam();
    await hook(admin);
    // A second instance's sender beside the server's own.
    const stopSecond = startWebhookSender({ intervalMs: 50 });
    try {
      const before = receiver.received.length;
      const names = Array.from({ length: 12 }, (_, i) => `Member ${i}`);
      for (const name of names) await recordTeamEvent(await db(), joined(admin.team.id, name));
      await expect.poll(() => receiver.received.length - before, { timeout: 15_000 }).toBe(12);
      const got = receiver.received.slice(before).map((r) => JSON.parse(r.body).member.name);
      expect(got).toEqual(names);
    } finally {
      await stopSecond();
    }
  });

  it("sends nothing to a webhook that is turned off", async () => {
    const admin = await adminTeam();
    const { id } = await hook(admin);
    await setWebhookEnabled(admin, id, false);
    await recordTeamEvent(await db(), joined(admin.team.id, "Nobody"));
    await expect.poll(async () => (await db()).teamEvent.count({ where: { teamId: admin.team.id, deliveredAt: { not: null } } }), { timeout: 10_000 }).toBe(1);
    expect(await delivered(admin)).toEqual([]);
  });

  it("does not slow a member's turn while a receiver never answers", async () => {
    const setup = await teamWithProvider(mock.url, "openai_chat");
    const admin = setup.ctx;
    await hook(admin, { events: ["member.joined", "approval.requested"] });
    const prisma = await db();
    // The receiver takes the first event and never answers.
    receiver.script("hang");
    await recordTeamEvent(prisma, joined(admin.team.id, "Early"));
    await expect.poll(() => receiver.hanging(), { timeout: 10_000 }).toBe(1);
    // Meanwhile a member's call waits for an admin: the turn ends as always.
    const user = await makeUser("Maria Member");
    await prisma.membership.create({ data: { teamId: admin.team.id, userId: user.id, role: "member" } });
    const team = { ...admin.team, role: "member" as const };
    const member: TeamContext = { user: { id: user.id, name: user.name, email: user.email }, team, teams: [team] };
    const mcp = await prisma.mcpServer.create({ data: { teamId: team.id, name: "Test", transport: "http", url: server.url } });
    await probeServer(admin, mcp.id);
    const echo = await prisma.mcpTool.update({ where: { serverId_name: { serverId: mcp.id, name: "echo" } }, data: { policy: "admin" } });
    const chat = await prisma.chat.create({ data: { teamId: team.id, userId: user.id, toolSelection: { servers: [mcp.id], tools: [echo.id] } } });
    mock.addFixture({
      match: { userMessage: "deploy-hang", hasToolResult: false },
      response: { toolCalls: [{ name: "Test__echo", arguments: '{"message":"x"}', id: "call_hang" }] },
    });
    const done = storedTurn();
    const chunks = await readChunks(await runTurn(member, { chatId: chat.id, text: "please deploy-hang" }, { onStored: done.onStored }));
    await done.promise;
    expect(chunks.some((c) => c.type === "tool-approval-request")).toBe(true);
    expect((await storedAnswer(chat.id)).blocks.find((b) => b.kind === "tool")).toMatchObject({ status: "approval-requested" });
    // The turn is over while the receiver still holds the first request; the new event waits behind it.
    expect(receiver.hanging()).toBe(1);
    await expect
      .poll(async () => (await delivered(admin)).map((d) => `${d.kind}:${d.status}`), { timeout: 10_000 })
      .toEqual(["approval.requested:pending", "member.joined:pending"]);
  });

  it("checks the URL with the address policy and lets only admins add webhooks", async () => {
    const admin = await adminTeam();
    await expect(createWebhook(admin, { name: "x", url: "http://10.0.0.8/hook", format: "parley", events: ["member.joined"] })).rejects.toThrow(
      /PARLEY_ALLOW_PRIVATE_URLS/,
    );
    await expect(createWebhook(admin, { name: "x", url: "http://169.254.169.254/hook", format: "parley", events: ["member.joined"] })).rejects.toThrow(
      /metadata/,
    );
    await expect(createWebhook(admin, { name: "x", url: "ftp://example.com/hook", format: "parley", events: ["member.joined"] })).rejects.toThrow(
      /http or https/,
    );
    await expect(createWebhook(admin, { name: "x", url: "https://example.com/hook", format: "parley", events: [] })).rejects.toThrow(/at least one event/);
    const member = { ...admin, team: { ...admin.team, role: "member" as const } };
    expect((await rejection(createWebhook(member, { name: "x", url: "https://example.com/hook", format: "parley", events: ["member.joined"] }))).status).toBe(
      403,
    );
    expect((await rejection(listWebhooks(member))).status).toBe(403);
  });
});
