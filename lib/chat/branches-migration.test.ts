// The migration that gives messages parents, on a database as the previous version left it: two chats
// whose messages were one line each. After it, each message follows the one before it in its own chat
// (the first has no parent), all of them are on the chat's branch, and the pages show them as before.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../db/client";
import { migratePGlite, migratePostgres, readMigrations } from "../db/migrator";
import { DRIVERS, rawQuery, type TestDatabase } from "@/test/support/test-databases";

const MIGRATION = "20261124081000_message_branches";
let test: TestDatabase;
let database: Database;
const migrate = (all: boolean) => {
  const list = readMigrations().filter((m) => (all ? m.name <= MIGRATION : m.name < MIGRATION));
  return database.pglite ? migratePGlite(database.pglite, list) : migratePostgres(database.pool!, list);
};

beforeAll(async () => {
  test = await DRIVERS[0].fresh();
  database = await test.open();
  await migrate(false);
}, 120_000);
afterAll(async () => {
  await test?.cleanup();
});

describe("message branches migration", () => {
  it("makes each stored message follow the one before it in its chat, all on the branch", async () => {
    const q = (sql: string) => rawQuery(database, sql);
    await q(`INSERT INTO "user" ("id", "name", "email", "emailVerified", "createdAt", "updatedAt") VALUES ('u1', 'U', 'u@example.com', false, now(), now())`);
    await q(`INSERT INTO "Team" ("id", "name", "updatedAt") VALUES ('t1', 'One', now())`);
    await q(`INSERT INTO "Chat" ("id", "teamId", "userId", "updatedAt") VALUES ('c1', 't1', 'u1', now()), ('c2', 't1', 'u1', now())`);
    // Interleaved, as chats written side by side are.
    await q(`INSERT INTO "Message" ("id", "chatId", "role", "updatedAt") VALUES
      ('a-q1', 'c1', 'user', now()), ('b-q1', 'c2', 'user', now()), ('a-a1', 'c1', 'assistant', now()),
      ('a-q2', 'c1', 'user', now()), ('b-a1', 'c2', 'assistant', now()), ('a-a2', 'c1', 'assistant', now())`);

    expect((await migrate(true)).applied).toEqual([MIGRATION]);

    expect(await q(`SELECT "id", "parentId", "onBranch" FROM "Message" ORDER BY "seq"`)).toEqual([
      { id: "a-q1", parentId: null, onBranch: true },
      { id: "b-q1", parentId: null, onBranch: true },
      { id: "a-a1", parentId: "a-q1", onBranch: true },
      { id: "a-q2", parentId: "a-a1", onBranch: true },
      { id: "b-a1", parentId: "b-q1", onBranch: true },
      { id: "a-a2", parentId: "a-q2", onBranch: true },
    ]);
  });
});
