// The outbox on a real database, as the running server delivers it: an event recorded in a change's
// transaction reaches every channel within seconds, in the team's order, once even when several
// instances dispatch at the same time; a channel that fails gets the same events again later; an event
// of a change that was rolled back is never delivered.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { db } from "../db/client";
import { DATABASES, startTestApp } from "../../test/support/test-app";
import { notificationChannels } from "./channels";
import { dispatchOnce } from "./dispatcher";
import { recordTeamEvent } from "./events";
import type { NotificationChannel, StoredTeamEvent, TeamEvent } from "./team-events";

function recorder(fail = 0): NotificationChannel & { got: StoredTeamEvent[]; calls: number } {
  const ch = {
    name: "recorder",
    got: [] as StoredTeamEvent[],
    calls: 0,
    async deliver(events: StoredTeamEvent[]) {
      ch.calls++;
      if (ch.calls <= fail) throw new Error("receiver down");
      ch.got.push(...events);
    },
  };
  return ch;
}

const joined = (teamId: string, n: number): TeamEvent => ({
  kind: "member.joined",
  teamId,
  role: "member",
  member: { id: `u${n}`, name: `Member ${n}`, email: `m${n}@example.com` },
});

describe.each(DATABASES)("the team event outbox ($name)", (driver) => {
  let app: Awaited<ReturnType<typeof startTestApp>>;
  let channel: ReturnType<typeof recorder>;
  beforeAll(async () => {
    app = await startTestApp(driver);
  });
  afterAll(async () => {
    await app.stop();
  });
  afterEach(() => {
    notificationChannels.splice(notificationChannels.indexOf(channel), 1);
  });

  async function team() {
    return (await (await db()).team.create({ data: { name: "Outbox" } })).id;
  }

  it("delivers a committed event to every channel within seconds, with its id and time", async () => {
    channel = recorder();
    notificationChannels.push(channel);
    const teamId = await team();
    await (await db()).$transaction(async (tx) => recordTeamEvent(tx, joined(teamId, 1)));
    await expect.poll(() => channel.got.length, { timeout: 5_000 }).toBe(1);
    expect(channel.got[0]).toMatchObject({ kind: "member.joined", teamId, member: { name: "Member 1" } });
    expect(channel.got[0].id).toEqual(expect.any(String));
    expect(new Date(channel.got[0].at).getTime()).toBeGreaterThan(0);
  });

  it("never delivers the event of a change that was rolled back", async () => {
    channel = recorder();
    notificationChannels.push(channel);
    const teamId = await team();
    await (
      await db()
    )
      .$transaction(async (tx) => {
        await recordTeamEvent(tx, joined(teamId, 9));
        throw new Error("the change failed");
      })
      .catch(() => {});
    await (await db()).$transaction(async (tx) => recordTeamEvent(tx, joined(teamId, 10)));
    await expect.poll(() => channel.got.length, { timeout: 5_000 }).toBe(1);
    expect(channel.got[0]).toMatchObject({ member: { name: "Member 10" } });
  });

  it("delivers each event once and in order while several instances dispatch at the same time", async () => {
    channel = recorder();
    notificationChannels.push(channel);
    const teamId = await team();
    const prisma = await db();
    for (let i = 0; i < 20; i++) await recordTeamEvent(prisma, joined(teamId, i));
    // Three more "instances" besides the server's own dispatcher.
    await Promise.all(["a", "b", "c"].map((holder) => dispatchOnce({ holder })));
    await expect.poll(() => channel.got.filter((e) => e.teamId === teamId).length, { timeout: 5_000 }).toBe(20);
    const mine = channel.got.filter((e) => e.teamId === teamId);
    expect(mine.map((e) => (e.kind === "member.joined" ? e.member.name : e.kind))).toEqual(Array.from({ length: 20 }, (_, i) => `Member ${i}`));
    expect(new Set(mine.map((e) => e.id)).size).toBe(20);
  });

  it("gives a channel that failed the same events again, later", async () => {
    channel = recorder(2);
    notificationChannels.push(channel);
    const teamId = await team();
    await recordTeamEvent(await db(), joined(teamId, 1));
    await expect.poll(() => channel.got.length, { timeout: 15_000 }).toBe(1);
    expect(channel.calls).toBe(3);
    const row = await (await db()).teamEvent.findFirstOrThrow({ where: { teamId } });
    expect(row.attempts).toBe(2);
    expect(row.deliveredAt).not.toBeNull();
  });
});
