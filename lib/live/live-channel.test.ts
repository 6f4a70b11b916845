// The live channel on a real database: a page gets the team's servers at once and, for an admin, the
// calls waiting for an admin; a change reaches it on the next tick and nothing is sent again while
// nothing changes; a member never hears of approvals; another team's changes are not sent; the stream
// ends when the page goes away, after its lifetime (with a retry for the browser), and when the server stops.
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../db/client";
import type { TeamContext } from "../teams/team-context";
import { makeUser, startTestApp, DRIVERS } from "../../test/support/test-app";
import { endLiveStreams, liveState, liveStream } from "./live-channel";

let stop: () => Promise<void>;
beforeAll(async () => {
  ({ stop } = await startTestApp(DRIVERS[0]));
});
afterAll(() => stop?.());

const TICK_MS = 50;

async function teamOf(role: "admin" | "member", teamId?: string): Promise<TeamContext> {
  const prisma = await db();
  const user = await makeUser(role);
  const t = teamId ? await prisma.team.findUniqueOrThrow({ where: { id: teamId } }) : await prisma.team.create({ data: { name: `Team ${user.id}` } });
  await prisma.membership.create({ data: { teamId: t.id, userId: user.id, role } });
  return { user: { id: user.id, name: user.name, email: user.email }, team: { id: t.id, name: t.name, role }, teams: [] };
}

/** A call of the team's waiting for an admin, as a turn stores it. */
async function waitingCall(ctx: TeamContext): Promise<string> {
  const prisma = await db();
  const chat = await prisma.chat.create({ data: { teamId: ctx.team.id, userId: ctx.user.id } });
  const message = await prisma.message.create({ data: { id: crypto.randomUUID(), chatId: chat.id, role: "assistant", status: "streaming" } });
  const block = await prisma.block.create({
    data: { messageId: message.id, ordinal: 0, kind: "tool", status: "approval-requested", approvalBy: "admin", toolName: "echo", toolCallId: "c1" },
  });
  return block.id;
}

type Event = { event: string; data: unknown } | { comment: string } | { retry: number };

/** Reads a live stream's events as they come. */
function reader(stream: ReadableStream<Uint8Array>) {
  const events: Event[] = [];
  let done = false;
  const decoder = new TextDecoder();
  let buffer = "";
  void (async () => {
    const bytes = stream.getReader();
    for (let read = await bytes.read(); !read.done; read = await bytes.read()) {
      buffer += decoder.decode(read.value, { stream: true });
      let cut: number;
      while ((cut = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const field = (name: string) => /^(\w+): (.*)$/m.exec(block)?.[1] === name;
        if (block.startsWith(":")) events.push({ comment: block.slice(1).trim() });
        else if (field("retry")) events.push({ retry: Number(block.slice(7)) });
        else {
          const event = /^event: (.*)$/m.exec(block)![1];
          events.push({ event, data: JSON.parse(/^data: (.*)$/m.exec(block)![1]) });
        }
      }
    }
    done = true;
  })();
  const named = (name: string) => events.filter((e): e is { event: string; data: unknown } => "event" in e && e.event === name);
  return { events, named, ended: () => done };
}

describe("the live channel", () => {
  it("sends an admin the waiting calls and the servers at once, then each change once", async () => {
    const admin = await teamOf("admin");
    const abort = new AbortController();
    const live = reader(liveStream(admin, abort.signal, { tickMs: TICK_MS }));
    await expect.poll(() => live.named("approvals").length).toBe(1);
    expect(live.events[0]).toEqual({ retry: 2000 });
    expect(live.named("approvals")[0].data).toEqual({ count: 0, latest: null });
    expect(live.named("servers")[0].data).toEqual({ servers: [] });

    const first = await waitingCall(admin);
    await expect.poll(() => (live.named("approvals").at(-1)?.data as { count: number }).count).toBe(1);
    const prisma = await db();
    await prisma.mcpServer.create({ data: { teamId: admin.team.id, name: "Files", transport: "http", url: "http://127.0.0.1:9/mcp" } });
    await expect.poll(() => (live.named("servers").at(-1)?.data as { servers: { name: string }[] }).servers.map((s) => s.name)).toEqual(["Files"]);

    // A third change, after ticks in which nothing changed: what was sent is exactly each change, once.
    await waitingCall(admin);
    await expect.poll(() => (live.named("approvals").at(-1)?.data as { count: number }).count).toBe(2);
    expect(live.events.map((e) => ("event" in e ? `${e.event} ${JSON.stringify(e.data).length > 40 ? "…" : JSON.stringify(e.data)}` : e))).toEqual([
      { retry: 2000 },
      expect.stringMatching(/^(servers|approvals) /),
      expect.stringMatching(/^(servers|approvals) /),
      "approvals …",
      "servers …",
      "approvals …",
    ]);

    // One call decided and another requested at once: the count stays, the inbox still hears of it.
    const before = live.named("approvals").length;
    const { messageId } = await prisma.block.findUniqueOrThrow({ where: { id: first } });
    await prisma.$transaction([
      prisma.block.update({ where: { id: first }, data: { status: "approval-responded" } }),
      prisma.block.create({
        data: { messageId, ordinal: 1, kind: "tool", status: "approval-requested", approvalBy: "admin", toolName: "echo", toolCallId: "c2" },
      }),
    ]);
    await expect.poll(() => live.named("approvals").length).toBe(before + 1);
    expect((live.named("approvals").at(-1)?.data as { count: number }).count).toBe(2);
    abort.abort();
    await expect.poll(live.ended).toBe(true);
  });

  it("never tells a member about approvals, nor anyone about another team", async () => {
    const admin = await teamOf("admin");
    const member = await teamOf("member", admin.team.id);
    const stranger = await teamOf("admin");
    const abort = new AbortController();
    const mine = reader(liveStream(member, abort.signal, { tickMs: TICK_MS }));
    const theirs = reader(liveStream(stranger, abort.signal, { tickMs: TICK_MS }));
    await expect.poll(() => mine.named("servers").length + theirs.named("approvals").length).toBe(2);
    await waitingCall(admin);
    const prisma = await db();
    await prisma.mcpServer.create({ data: { teamId: admin.team.id, name: "Team files", transport: "http", url: "http://127.0.0.1:9/mcp" } });
    await expect.poll(() => mine.named("servers").length).toBe(2);
    expect(mine.named("approvals")).toEqual([]);
    expect(theirs.named("approvals").map((e) => e.data)).toEqual([{ count: 0, latest: null }]);
    expect(theirs.named("servers").map((e) => e.data)).toEqual([{ servers: [] }]);
    abort.abort();
  });

  it("reads once per team and role for all of its open pages in a tick", async () => {
    const admin = await teamOf("admin");
    const otherAdmin = await teamOf("admin", admin.team.id);
    const member = await teamOf("member", admin.team.id);
    const read = liveState(admin, 60_000);
    expect(liveState(otherAdmin, 60_000)).toBe(read);
    expect(liveState(member, 60_000)).not.toBe(read); // a member's read leaves out the approvals
    expect(await liveState(member, 60_000)).not.toHaveProperty("approvals");
    expect(liveState(admin, 0)).not.toBe(read); // older than asked for: read again
  });

  it("ends after its lifetime, and every stream of the process when the server stops", async () => {
    const admin = await teamOf("admin");
    const short = reader(liveStream(admin, new AbortController().signal, { tickMs: TICK_MS, lifetimeMs: 3 * TICK_MS }));
    await expect.poll(short.ended).toBe(true);
    expect(short.named("servers")).toHaveLength(1);

    const pages = [reader(liveStream(admin, new AbortController().signal, { tickMs: TICK_MS })), reader(liveStream(admin, new AbortController().signal))];
    await expect.poll(() => pages.every((p) => p.named("servers").length === 1)).toBe(true);
    endLiveStreams();
    await expect.poll(() => pages.every((p) => p.ended())).toBe(true);
  });
});
