// An audited change and its audit event are stored together or not at all: an admin reading the log
// never sees an event for a change that did not happen, nor a change without its event.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DRIVERS, makeUser, startTestApp } from "../test/support/test-app";
import { audited } from "./audit";
import { db } from "./db/client";

describe.each(DRIVERS)("audited changes on $name", (driver) => {
  let stop: () => Promise<void>;
  beforeAll(async () => {
    if (driver.skip) return;
    ({ stop } = await startTestApp(driver));
  });
  afterAll(() => stop?.());

  async function actor() {
    const prisma = await db();
    const user = await makeUser("admin");
    const team = await prisma.team.create({ data: { name: `T ${user.id}` } });
    return { user: { id: user.id }, team: { id: team.id } };
  }

  it.skipIf(driver.skip)("stores the change and its event, with who and which team", async () => {
    const who = await actor();
    const renamed = await audited(
      who,
      (tx) => tx.team.update({ where: { id: who.team.id }, data: { name: "Renamed" } }),
      (team) => ({
        action: "team.rename",
        targetType: "team",
        targetId: team.id,
        data: { name: team.name },
      }),
    );
    expect(renamed.name).toBe("Renamed");
    const events = await (await db()).auditEvent.findMany({ where: { teamId: who.team.id } });
    expect(events).toMatchObject([{ actorId: who.user.id, teamId: who.team.id, action: "team.rename", targetId: who.team.id, data: { name: "Renamed" } }]);
  });

  it.skipIf(driver.skip)("stores neither when the change fails, nor when recording its event fails", async () => {
    const prisma = await db();
    const who = await actor();
    await expect(
      audited(
        who,
        async (tx) => {
          await tx.team.update({ where: { id: who.team.id }, data: { name: "Half done" } });
          throw new Error("the change failed half-way");
        },
        { action: "team.rename" },
      ),
    ).rejects.toThrow("half-way");
    await expect(
      audited(who, (tx) => tx.team.update({ where: { id: who.team.id }, data: { name: "Unrecorded" } }), {
        action: "team.rename",
        teamId: "no-such-team", // the event cannot be stored (foreign key)
      }),
    ).rejects.toThrow();
    expect((await prisma.team.findUniqueOrThrow({ where: { id: who.team.id } })).name).toBe(`T ${who.user.id}`);
    expect(await prisma.auditEvent.count({ where: { actorId: who.user.id } })).toBe(0);
  });

  it.skipIf(driver.skip)("records nothing when the change says nothing happened, and a new team's id when it made one", async () => {
    const prisma = await db();
    const who = await actor();
    await audited(
      who,
      async () => null,
      (r) => r && { action: "never" },
    );
    expect(await prisma.auditEvent.count({ where: { actorId: who.user.id } })).toBe(0);
    const team = await audited(
      { user: who.user },
      (tx) => tx.team.create({ data: { name: "New" } }),
      (t) => ({ teamId: t.id, action: "team.create", targetId: t.id }),
    );
    expect(await prisma.auditEvent.findMany({ where: { actorId: who.user.id } })).toMatchObject([{ teamId: team.id, action: "team.create" }]);
  });
});
