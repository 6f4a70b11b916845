// The upgrade test: a database as the previous release left it, migrated by this build and read back
// whole. Each fixture in test/upgrade/ is named after the last migration it includes; for each (on
// PGlite, and on PostgreSQL when TEST_DATABASE_URL is set) an empty database gets the migrations up to
// and including that one, then the fixture's rows, then this build's migrator, which must apply exactly
// the newer migrations. The app then starts on it (lib/startup.ts, as after an upgrade) and every chat,
// message, block, approval, citation, attachment, budget, usage record and share is read back through
// the app's own reading functions (Prisma where the app has none), value by value: the tool calls'
// states, the edited input and the model's original, the denial's reason, the attachments' bytes.
// How to make a fixture at a release: the header of the fixture, and docs/operations.md#upgrades.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { filesForModel } from "../lib/attachments/model-files";
import { readAttachment } from "../lib/attachments/store";
import { listChatPage } from "../lib/chat/chat-list";
import { loadMessagePage } from "../lib/chat/history";
import { adminInbox, countPendingApprovals } from "../lib/approvals/team-approvals";
import { database, db, type Database } from "../lib/db/client";
import { migratePGlite, migratePostgres, readMigrations, type Migration, type MigrationResult } from "../lib/db/migrator";
import { listServers } from "../lib/mcp/servers";
import { searchChats } from "../lib/search/search";
import { chatAccess } from "../lib/sharing/access";
import { listShares, listSharedWithMe } from "../lib/sharing/shares";
import { ready, shutdown } from "../lib/startup";
import { teamsOf } from "../lib/teams/context";
import type { TeamContext } from "../lib/teams/team-context";
import { pickerServers } from "../lib/tools/member-tools";
import { listBudgets } from "../lib/usage/budget-admin";
import { usageReport } from "../lib/usage/report";
import { DATABASES, rawQuery, type TestDatabase } from "./support/test-databases";

const MIGRATIONS_DIR = path.resolve(__dirname, "../prisma/migrations");
const FIXTURES_DIR = path.resolve(__dirname, "upgrade");

const migrations = readMigrations(MIGRATIONS_DIR);
/** The migration folders as they are on disk (not through readMigrations, which the test relies on). */
const migrationNames = fs
  .readdirSync(MIGRATIONS_DIR, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort();
const fixtures = fs
  .readdirSync(FIXTURES_DIR)
  .filter((f) => f.endsWith(".sql"))
  .sort()
  .map((f) => ({ name: f.slice(0, -".sql".length), sql: fs.readFileSync(path.join(FIXTURES_DIR, f), "utf8") }));

/** "Now" for the readers that take one: after the fixture's activity, in the same month. */
const NOW = new Date("2026-11-25T12:00:00Z");
const TEAM = "team_acme";

function migrate(database: Database, list: Migration[]): Promise<MigrationResult> {
  return database.pglite ? migratePGlite(database.pglite, list) : migratePostgres(database.pool!, list);
}

/** Runs a file of SQL statements on the raw driver (PGlite's exec, pg's simple protocol). */
async function runSql(database: Database, sql: string): Promise<void> {
  if (database.pglite) await database.pglite.exec(sql);
  else await database.pool!.query(sql);
}

/** The chart attachment's bytes as the fixture makes them: the PNG signature, then (i * i + 7 * i) mod 251. */
function chartBytes(): Buffer {
  const out = Buffer.alloc(8 + 300_000);
  Buffer.from("89504e470d0a1a0a", "hex").copy(out);
  for (let i = 0; i < 300_000; i++) out[8 + i] = (i * i + 7 * i) % 251;
  return out;
}
const NOTES = "Q3 revenue: €1.2M\nQ4 target: €1.5M\n";

/** The first index where two byte strings differ (-1: none), so a failure names the place, not 300 KB. */
function firstDifference(a: Buffer, b: Buffer): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : n;
}

async function readAll(body: ReadableStream<Uint8Array>): Promise<Buffer> {
  const reader = body.getReader();
  const parts: Uint8Array[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return Buffer.concat(parts);
    parts.push(value);
  }
}

/** A member's context in the team, from their rows (as the app builds it for a signed-in member). */
async function contextOf(userId: string): Promise<TeamContext> {
  const prisma = await db();
  const user = await prisma.user.findUniqueOrThrow({ where: { id: userId }, select: { id: true, name: true, email: true } });
  const teams = await teamsOf(userId);
  const team = teams.find((t) => t.id === TEAM);
  if (!team) throw new Error(`${userId} is not a member of ${TEAM}`);
  return { user, team, teams };
}

const writeMeta = { source: "mcp", serverId: "srv_files", serverName: "Files", toolName: "write_file", toolId: "tool_write" };
const deleteMeta = { source: "mcp", serverId: "srv_files", serverName: "Files", toolName: "delete_file", toolId: "tool_delete" };
const SHARE_RULE = "path matches /^/shared// → an admin approves";

it("has fixtures, each named after a migration of this build", () => {
  expect(fixtures.length).toBeGreaterThan(0);
  for (const f of fixtures) expect(migrationNames).toContain(f.name);
});

const cases = DATABASES.flatMap((driver) => fixtures.map((fixture) => ({ driver, fixture, label: `${fixture.name} on ${driver.name}` })));

describe.each(cases)("upgrade from $label", ({ driver, fixture }) => {
  let test: TestDatabase | undefined;
  let result: MigrationResult;
  let ada: TeamContext;
  let bob: TeamContext;

  beforeAll(async () => {
    await shutdown();
    test = await driver.fresh();
    const raw = await test.open();
    try {
      await migrate(
        raw,
        migrations.filter((m) => m.name <= fixture.name),
      );
      await runSql(raw, fixture.sql);
      result = await migrate(raw, migrations);
    } finally {
      await raw.close();
    }
    // The app's own database from here on, as test/support/test-app.ts points it.
    if (test.url) process.env.DATABASE_URL = test.url;
    else delete process.env.DATABASE_URL;
    process.env.PARLEY_DATA_DIR = test.dir;
    await ready();
    ada = await contextOf("user_ada");
    bob = await contextOf("user_bob");
  }, 180_000);

  afterAll(async () => {
    await shutdown();
    await test?.cleanup();
  });

  it("the migrator applies exactly the migrations after the fixture's, and records every one", async () => {
    const newer = migrationNames.filter((n) => n > fixture.name);
    expect(result).toEqual({ applied: newer, total: migrationNames.length });
    const recorded = await rawQuery<{ migration_name: string }>(
      await database(),
      `SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY migration_name`,
    );
    expect(recorded.map((r) => r.migration_name)).toEqual(migrationNames);
  });

  it("keeps every row of the fixture", async () => {
    const prisma = await db();
    const counts = {
      users: await prisma.user.count(),
      teams: await prisma.team.count(),
      memberships: await prisma.membership.count(),
      chats: await prisma.chat.count(),
      messages: await prisma.message.count(),
      blocks: await prisma.block.count(),
      citations: await prisma.citation.count(),
      attachments: await prisma.attachment.count(),
      usageRecords: await prisma.usageRecord.count(),
      budgets: await prisma.budget.count(),
      shares: await prisma.chatShare.count(),
      mcpServers: await prisma.mcpServer.count(),
      mcpTools: await prisma.mcpTool.count(),
    };
    expect(counts).toEqual({
      users: 2,
      teams: 1,
      memberships: 2,
      chats: 2,
      messages: 7,
      blocks: 14,
      citations: 1,
      attachments: 2,
      usageRecords: 4,
      budgets: 4,
      shares: 2,
      mcpServers: 1,
      mcpTools: 2,
    });
  });

  it("members keep their roles and settings; the group rule's member is marked as the rule's", async () => {
    const prisma = await db();
    const rows = await prisma.membership.findMany({
      where: { teamId: TEAM },
      orderBy: { createdAt: "asc" },
      select: { userId: true, role: true, source: true, defaultModelId: true, lastToolSelection: true },
    });
    expect(rows).toEqual([
      {
        userId: "user_ada",
        role: "admin",
        source: null,
        defaultModelId: null,
        lastToolSelection: { servers: ["srv_files"], tools: ["tool_write", "tool_delete"] },
      },
      { userId: "user_bob", role: "member", source: "sso", defaultModelId: "model_main", lastToolSelection: null },
    ]);
    expect(ada.teams).toEqual([{ id: TEAM, name: "Acme", role: "admin" }]);
    expect(bob.teams).toEqual([{ id: TEAM, name: "Acme", role: "member" }]);
    const user = await prisma.user.findUniqueOrThrow({ where: { id: "user_ada" }, select: { email: true, instructions: true } });
    expect(user).toEqual({ email: "ada@example.com", instructions: "Answer in short paragraphs." });
    const team = await prisma.team.findUniqueOrThrow({ where: { id: TEAM }, include: { defaultModel: { include: { provider: true } } } });
    expect(team.defaultModel).toMatchObject({
      id: "model_main",
      modelId: "acme-large",
      displayName: "Acme Large",
      vision: true,
      contextWindow: 128000,
      inputPrice: 2.5,
      cachedInputPrice: 1.25,
      outputPrice: 10,
      provider: { id: "prov_acme", teamId: TEAM, name: "Acme gateway", kind: "openai_compatible", baseUrl: "https://llm.example.com/v1" },
    });
  });

  it("each member's chat list shows their own chat", async () => {
    expect(await listChatPage(ada, { tz: "UTC" }, NOW)).toEqual({
      chats: [{ id: "chat_report", title: "Q3 report", updatedAt: "2026-11-20T09:06:00.000Z", pinned: true, archived: false, group: "Pinned" }],
      nextCursor: null,
    });
    expect(await listChatPage(bob, { tz: "UTC" }, NOW)).toEqual({
      chats: [
        { id: "chat_release", title: "Release checklist", updatedAt: "2026-11-19T15:00:30.000Z", pinned: false, archived: false, group: "Previous 7 days" },
      ],
      nextCursor: null,
    });
  });

  it("a chat reads back whole: its branch, versions, text, files, sources, citations, usage and every tool call's state", async () => {
    const page = await loadMessagePage("chat_report");
    expect(page.hasMore).toBe(false);
    expect(page.messages).toEqual([
      {
        id: "msg_q1",
        role: "user",
        metadata: { status: "done", createdAt: "2026-11-20T09:00:00.000Z" },
        parts: [
          { type: "text", text: "Summarise the attached numbers and save the summary.", state: "done" },
          { type: "file", mediaType: "text/plain", url: "/api/attachments/att_notes", filename: "notes.txt" },
          { type: "file", mediaType: "image/png", url: "/api/attachments/att_chart", filename: "chart.png" },
        ],
      },
      {
        id: "msg_a1",
        role: "assistant",
        metadata: {
          status: "done",
          createdAt: "2026-11-20T09:01:00.000Z",
          // The answer regenerated: the first version is off the branch and counted here.
          versions: { index: 2, count: 2 },
          model: "acme-large",
          finishReason: "stop",
          usage: { inputTokens: 1200, outputTokens: 300, cachedInputTokens: 200, reasoningTokens: 40, cost: 0.00575 },
          citations: [{ n: 1, url: "https://example.com/q3", origin: "provider_search", title: "Q3 figures", snippet: "Revenue rose to 1.2 million." }],
        },
        parts: [
          { type: "step-start" },
          { type: "text", text: "I will save the summary and tidy up.", state: "done" },
          {
            type: "tool-Files__write_file",
            toolCallId: "call_write",
            state: "output-available",
            // What ran is the edited input; the model's own is the approval's `original`.
            input: { path: "/home/ada/q3-summary.md", content: "Q3 revenue: 1.2M" },
            output: { content: [{ type: "text", text: "Wrote 16 bytes to /home/ada/q3-summary.md" }], isError: false },
            approval: {
              id: "appr_write",
              approved: true,
              by: "member",
              decidedBy: "Ada",
              decidedAt: "2026-11-20T09:02:00.000Z",
              original: { path: "/tmp/q3-summary.md", content: "Q3 revenue: 1.2M" },
            },
            toolMetadata: writeMeta,
          },
          {
            type: "tool-Files__delete_file",
            toolCallId: "call_delete",
            state: "output-denied",
            input: { path: "/home/ada/q3-draft.md" },
            approval: {
              id: "appr_delete",
              approved: false,
              reason: "Keep the draft until the review on Friday.",
              by: "admin",
              decidedBy: "Ada",
              decidedAt: "2026-11-20T09:02:20.000Z",
            },
            toolMetadata: deleteMeta,
          },
          { type: "source-url", url: "https://example.com/q3", title: "Q3 figures" },
          { type: "text", text: "Saved the summary [1]. The old draft stays, as you asked.", state: "done" },
        ],
      },
      {
        id: "msg_q2",
        role: "user",
        metadata: { status: "done", createdAt: "2026-11-20T09:05:00.000Z" },
        parts: [{ type: "text", text: "Copy the summary to the shared folder.", state: "done" }],
      },
      {
        id: "msg_a2",
        role: "assistant",
        metadata: {
          status: "done",
          createdAt: "2026-11-20T09:05:10.000Z",
          model: "acme-large",
          finishReason: "tool-calls",
          usage: { inputTokens: 1500, outputTokens: 80, cachedInputTokens: 0, reasoningTokens: 0, cost: 0.00455 },
        },
        parts: [
          {
            type: "tool-Files__write_file",
            toolCallId: "call_share",
            state: "approval-requested",
            input: { path: "/shared/q3-summary.md", content: "Q3 revenue: 1.2M" },
            approval: { id: "appr_share", by: "admin", rule: SHARE_RULE },
            toolMetadata: writeMeta,
          },
        ],
      },
    ]);

    // The version off the branch, with its parent and its text.
    const prisma = await db();
    const old = await prisma.message.findUniqueOrThrow({ where: { id: "msg_a1_old" }, include: { blocks: true } });
    expect(old).toMatchObject({ chatId: "chat_report", parentId: "msg_q1", onBranch: false, cost: 0.0035 });
    expect(old.blocks.map((b) => b.text)).toEqual(["Revenue was 1.2 million in Q3."]);
    const parents = await prisma.message.findMany({ where: { chatId: "chat_report" }, orderBy: { seq: "asc" }, select: { id: true, parentId: true } });
    expect(parents).toEqual([
      { id: "msg_q1", parentId: null },
      { id: "msg_a1_old", parentId: "msg_q1" },
      { id: "msg_a1", parentId: "msg_q1" },
      { id: "msg_q2", parentId: "msg_a1" },
      { id: "msg_a2", parentId: "msg_q2" },
    ]);

    const other = await loadMessagePage("chat_release");
    expect(other.messages.map((m) => [m.id, m.role, m.parts])).toEqual([
      ["msg_bq1", "user", [{ type: "text", text: "What goes in the release notes?", state: "done" }]],
      ["msg_ba1", "assistant", [{ type: "text", text: "New features, fixes, and the upgrade steps.", state: "done" }]],
    ]);
  });

  it("the call waiting for an admin is in the team's inbox, with its rule", async () => {
    expect(await countPendingApprovals(TEAM)).toBe(1);
    expect(await adminInbox(ada)).toEqual([
      {
        approvalId: "appr_share",
        chatId: "chat_report",
        chatTitle: "Q3 report",
        member: "Ada",
        question: "Copy the summary to the shared folder.",
        tool: {
          label: "Files · write_file",
          serverName: "Files",
          toolName: "write_file",
          toolId: "tool_write",
          inputSchema: { type: "object", properties: { path: { type: "string" }, content: { type: "string" } }, required: ["path", "content"] },
        },
        input: { path: "/shared/q3-summary.md", content: "Q3 revenue: 1.2M" },
        rule: SHARE_RULE,
        deadline: null,
        requestedAt: "2026-11-20T09:05:30.000Z",
      },
    ]);
  });

  it("the tools keep their policies and rules, and members are told who approves", async () => {
    const [server] = await listServers(TEAM);
    expect(server).toMatchObject({ id: "srv_files", name: "Files", transport: "http", enabled: true });
    expect(server.tools.map((t) => ({ name: t.name, policy: t.policy, rules: t.rules, decisionTimeoutMin: t.decisionTimeoutMin }))).toEqual([
      { name: "delete_file", policy: "admin", rules: null, decisionTimeoutMin: 60 },
      { name: "write_file", policy: "ask", rules: [{ field: "path", op: "matches", value: "^/shared/", then: "admin" }], decisionTimeoutMin: null },
    ]);
    const [picker] = await pickerServers(bob);
    expect(picker.tools.map((t) => [t.name, t.asksFirst, t.approver])).toEqual([
      ["delete_file", true, "admin"],
      ["write_file", true, "admin"],
    ]);
  });

  it("shares: who sees which chat, and who may continue it", async () => {
    const asBob = await chatAccess(bob, "chat_report");
    expect({ owner: asBob.owner, ownerName: asBob.ownerName, canContinue: asBob.canContinue }).toEqual({ owner: false, ownerName: "Ada", canContinue: false });
    expect(asBob.chat).toMatchObject({
      id: "chat_report",
      modelId: "model_main",
      toolSelection: { servers: ["srv_files"], tools: ["tool_write", "tool_delete"] },
      pinnedAt: new Date("2026-11-20T10:00:00Z"),
    });
    const asAda = await chatAccess(ada, "chat_release");
    expect({ owner: asAda.owner, ownerName: asAda.ownerName, canContinue: asAda.canContinue }).toEqual({ owner: false, ownerName: "Bob", canContinue: true });

    expect(await listShares(ada, "chat_report")).toEqual({
      shares: [{ id: "share_report_bob", userId: "user_bob", name: "Bob", canContinue: false, createdAt: "2026-11-20T09:10:00.000Z" }],
      members: [{ id: "user_bob", name: "Bob" }],
    });
    expect(await listShares(bob, "chat_release")).toEqual({
      shares: [{ id: "share_release_team", userId: null, name: "Everyone in the team", canContinue: true, createdAt: "2026-11-19T15:05:00.000Z" }],
      members: [{ id: "user_ada", name: "Ada" }],
    });
    expect(await listSharedWithMe(ada)).toEqual([
      { id: "chat_release", title: "Release checklist", owner: "Bob", updatedAt: "2026-11-19T15:00:30.000Z", canContinue: true },
    ]);
    expect(await listSharedWithMe(bob)).toEqual([
      { id: "chat_report", title: "Q3 report", owner: "Ada", updatedAt: "2026-11-20T09:06:00.000Z", canContinue: false },
    ]);
  });

  it("search finds the chats by their words", async () => {
    expect((await searchChats(ada, "summary")).map((r) => r.chatId)).toEqual(["chat_report"]);
    expect((await searchChats(ada, "release")).map((r) => [r.chatId, r.owner, r.mine])).toEqual([["chat_release", "Bob", false]]);
  });

  it("attachments: the same bytes, now in chunks of 256 KB, to whoever may see the chat and to the model", async () => {
    const chart = chartBytes();
    const prisma = await db();
    const chunks = await prisma.attachmentChunk.findMany({ orderBy: [{ attachmentId: "asc" }, { seq: "asc" }] });
    expect(chunks.map((c) => [c.attachmentId, c.seq, c.data.length])).toEqual([
      ["att_chart", 0, 262_144],
      ["att_chart", 1, chart.length - 262_144],
      ["att_notes", 0, Buffer.byteLength(NOTES)],
    ]);
    const rows = await prisma.attachment.findMany({ orderBy: { id: "asc" } });
    expect(rows.map((r) => ({ id: r.id, chatId: r.chatId, messageId: r.messageId, name: r.name, size: r.size, complete: r.complete, text: r.text }))).toEqual([
      { id: "att_chart", chatId: "chat_report", messageId: "msg_q1", name: "chart.png", size: chart.length, complete: true, text: null },
      { id: "att_notes", chatId: "chat_report", messageId: "msg_q1", name: "notes.txt", size: Buffer.byteLength(NOTES), complete: true, text: NOTES },
    ]);

    // Bob reads Ada's chart through the share, a chunk at a time, as a download does.
    const read = await readAttachment(bob, "att_chart");
    expect({ id: read.id, name: read.name, mediaType: read.mediaType, size: read.size }).toEqual({
      id: "att_chart",
      name: "chart.png",
      mediaType: "image/png",
      size: chart.length,
    });
    const downloaded = await readAll(read.body);
    expect(downloaded.length).toBe(chart.length);
    expect(firstDifference(downloaded, chart)).toBe(-1);
    const notes = await readAll((await readAttachment(ada, "att_notes")).body);
    expect(notes.toString("utf8")).toBe(NOTES);

    // The model of the chat (it sees images) gets the chart's bytes and the notes' text.
    const [question] = (await loadMessagePage("chat_report")).messages;
    const { history, notices } = await filesForModel([question], { displayName: "Acme Large", kind: "openai_compatible", modelRowId: "model_main" });
    expect(notices).toEqual([]);
    const [text, notesPart, chartPart] = history[0].parts as { type: string; text?: string; url?: string }[];
    expect(text).toEqual({ type: "text", text: "Summarise the attached numbers and save the summary.", state: "done" });
    expect(notesPart).toEqual({ type: "text", text: `Attached file "notes.txt" (text/plain):\n${NOTES}` });
    expect(chartPart.type).toBe("file");
    const prefix = "data:image/png;base64,";
    expect(chartPart.url?.startsWith(prefix)).toBe(true);
    const sent = Buffer.from(chartPart.url!.slice(prefix.length), "base64");
    expect(sent.length).toBe(chart.length);
    expect(firstDifference(sent, chart)).toBe(-1);
  });

  it("budgets and usage: the same limits, and what was used counts against them", async () => {
    expect(await listBudgets(TEAM, NOW)).toEqual([
      {
        id: "bud_team",
        scope: "team",
        subject: "Whole team",
        metric: "cost",
        limit: 25,
        used: expect.closeTo(0.01755, 9),
        resetsAt: "2026-12-01T00:00:00.000Z",
      },
      {
        id: "bud_default",
        scope: "member_default",
        subject: "Each member (default)",
        metric: "tokens",
        limit: 50000,
        used: 4030,
        resetsAt: "2026-12-01T00:00:00.000Z",
      },
      { id: "bud_bob", scope: "member", subject: "Bob", metric: "tokens", limit: 100000, used: 750, resetsAt: "2026-12-01T00:00:00.000Z" },
      {
        id: "bud_model",
        scope: "model",
        subject: "Acme Large",
        metric: "cost",
        limit: 10,
        used: expect.closeTo(0.01755, 9),
        resetsAt: "2026-12-01T00:00:00.000Z",
      },
    ]);
    const report = await usageReport(TEAM, { from: "2026-11-01", to: "2026-11-30" });
    expect(report.total).toEqual({ tokens: 4780, cost: expect.closeTo(0.01755, 9), answers: 4 });
    expect(report.rows).toEqual([
      {
        day: "2026-11-19",
        userId: "user_bob",
        member: "Bob",
        model: "Acme Large",
        provider: "Acme gateway",
        answers: 1,
        inputTokens: 500,
        cachedInputTokens: 0,
        outputTokens: 250,
        reasoningTokens: 0,
        cost: 0.00375,
      },
      {
        day: "2026-11-20",
        userId: "user_ada",
        member: "Ada",
        model: "Acme Large",
        provider: "Acme gateway",
        answers: 3,
        inputTokens: 3500,
        cachedInputTokens: 200,
        outputTokens: 530,
        reasoningTokens: 40,
        cost: 0.0138,
      },
    ]);
    const prisma = await db();
    const records = await prisma.usageRecord.findMany({ orderBy: { id: "asc" }, select: { id: true, chatId: true, messageId: true, modelRowId: true } });
    expect(records).toEqual([
      { id: "use_a1", chatId: "chat_report", messageId: "msg_a1", modelRowId: "model_main" },
      { id: "use_a1_old", chatId: "chat_report", messageId: "msg_a1_old", modelRowId: "model_main" },
      { id: "use_a2", chatId: "chat_report", messageId: "msg_a2", modelRowId: "model_main" },
      { id: "use_ba1", chatId: "chat_release", messageId: "msg_ba1", modelRowId: "model_main" },
    ]);
  });
});
