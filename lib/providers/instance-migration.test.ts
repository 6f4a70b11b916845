// The migration to one instance provider, on a database as the previous version left it: two teams
// each with a copy of the environment provider (one with an extra model), defaults, fallbacks and a
// chat pointing at the copies' models. After it, one provider without a team holds the models, every
// reference follows them, the copies are gone, and a team's own provider is untouched.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../db/client";
import { migratePGlite, migratePostgres, readMigrations } from "../db/migrator";
import { DRIVERS, rawQuery, type TestDatabase } from "@/test/support/test-databases";

const MIGRATION = "20261124033000_instance_provider";
let test: TestDatabase;
let database: Database;
const migrate = (all: boolean) => {
  // Up to this migration: later ones are tested on their own.
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

describe("instance provider migration", () => {
  it("turns the per-team copies into one instance provider and moves every reference", async () => {
    const q = (sql: string) => rawQuery(database, sql);
    await q(`INSERT INTO "user" ("id", "name", "email", "emailVerified", "createdAt", "updatedAt") VALUES ('u1', 'U', 'u@example.com', false, now(), now())`);
    await q(`INSERT INTO "Team" ("id", "name", "updatedAt") VALUES ('t1', 'One', now()), ('t2', 'Two', now())`);
    await q(`INSERT INTO "Provider" ("id", "teamId", "name", "kind", "baseUrl", "apiKeyEnc", "apiKeyHint", "origin", "updatedAt") VALUES
      ('p1', 't1', 'From environment', 'openai_chat', 'https://api.example.com/v1', 'v1:old', 'sk-...old', 'env', now() - interval '1 day'),
      ('p2', 't2', 'From environment', 'openai_chat', 'https://api.example.com/v1', 'v1:new', 'sk-...new', 'env', now()),
      ('own', 't2', 'Own', 'openai_compatible', 'http://127.0.0.1:11434/v1', NULL, NULL, 'admin', now())`);
    await q(`INSERT INTO "Model" ("id", "providerId", "modelId", "displayName", "updatedAt") VALUES
      ('m1', 'p1', 'gpt-4.1-mini', 'gpt-4.1-mini', now()), ('m2', 'p2', 'gpt-4.1-mini', 'gpt-4.1-mini', now()),
      ('m3', 'p2', 'gpt-4o', 'GPT-4o', now()), ('mo', 'own', 'llama', 'llama', now())`);
    await q(`UPDATE "Team" SET "defaultModelId" = 'm1' WHERE "id" = 't1'`);
    await q(`UPDATE "Team" SET "defaultModelId" = 'm3', "fallbackModelId" = 'mo' WHERE "id" = 't2'`);
    await q(`INSERT INTO "Chat" ("id", "teamId", "userId", "modelId", "updatedAt") VALUES ('c1', 't2', 'u1', 'm2', now())`);

    expect((await migrate(true)).applied).toEqual([MIGRATION]);

    const providers = await q(`SELECT "id", "teamId", "apiKeyEnc", "origin" FROM "Provider" ORDER BY "id"`);
    expect(providers).toEqual([
      { id: "instance-env", teamId: null, apiKeyEnc: "v1:new", origin: "env" },
      { id: "own", teamId: "t2", apiKeyEnc: null, origin: "admin" },
    ]);
    const models = await q(`SELECT "id", "providerId", "modelId" FROM "Model" ORDER BY "modelId"`);
    const byId = Object.fromEntries(models.map((m) => [m.modelId as string, m.id as string]));
    expect(models.filter((m) => m.providerId === "instance-env").map((m) => m.modelId)).toEqual(["gpt-4.1-mini", "gpt-4o"]);
    expect(await q(`SELECT "id", "defaultModelId", "fallbackModelId" FROM "Team" ORDER BY "id"`)).toEqual([
      { id: "t1", defaultModelId: byId["gpt-4.1-mini"], fallbackModelId: null },
      { id: "t2", defaultModelId: byId["gpt-4o"], fallbackModelId: "mo" },
    ]);
    expect(await q(`SELECT "modelId" FROM "Chat"`)).toEqual([{ modelId: byId["gpt-4.1-mini"] }]);
  });
});
