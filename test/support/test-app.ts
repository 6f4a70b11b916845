// Test helper: points the app's process-wide database at a fresh test database (PGlite, or PostgreSQL
// when TEST_DATABASE_URL is set) and runs start-up on it, so lib functions can be tested as the app
// runs them. Not imported by the app.
import { DATABASES, DRIVERS, type TestDatabase } from "./test-databases";
import { db } from "../../lib/db/client";
import { ready, shutdown } from "../../lib/startup";
import { AppError } from "../../lib/errors";
import type { TeamContext } from "../../lib/teams/team-context";

export { DATABASES, DRIVERS };

export async function startTestApp(driver: (typeof DRIVERS)[number]): Promise<{ test: TestDatabase; stop(): Promise<void> }> {
  await shutdown();
  const test = await driver.fresh({ migrated: true });
  if (test.url) {
    process.env.DATABASE_URL = test.url;
  } else {
    delete process.env.DATABASE_URL;
  }
  process.env.PARLEY_DATA_DIR = test.dir;
  await ready();
  return {
    test,
    async stop() {
      await shutdown();
      await test.cleanup();
    },
  };
}

let seq = 0;
/** A user row as better-auth would make it (tests of team logic need no passwords). */
export async function makeUser(name = "user") {
  const prisma = await db();
  const id = `u_${Date.now().toString(36)}_${seq++}`;
  return prisma.user.create({ data: { id, name, email: `${id}@example.com` } });
}

/** A new user who joins the team with `role`, as the team context routes would get for them. */
export async function teamMember(teamId: string, name: string, role: "admin" | "member" = "member"): Promise<TeamContext> {
  const prisma = await db();
  const user = await makeUser(name);
  await prisma.membership.create({ data: { teamId, userId: user.id, role } });
  const team = { id: teamId, name: "T", role };
  return { user: { id: user.id, name: user.name, email: user.email }, team, teams: [team] };
}

/** The AppError a promise rejects with (the test fails when it resolves or throws something else). */
export async function rejection(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof AppError)) throw new Error(`expected a refusal (AppError), got ${err === undefined ? "success" : String(err)}`);
  return err;
}
