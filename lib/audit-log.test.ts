// The audit log as admins read it, on a real database: names instead of ids (a deleted target keeps
// the name its event recorded), filters by action, member and date range, pages of 50, and never an
// event of another team.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "./db/client";
import type { Prisma } from "./db/generated/client";
import { AUDIT_PAGE_SIZE, auditCsv, auditFilterChoices, auditFilterSchema, listAuditEvents } from "./audit-log";
import { DRIVERS, makeUser, startTestApp } from "../test/support/test-app";

let stop: () => Promise<void>;
beforeAll(async () => {
  ({ stop } = await startTestApp(DRIVERS[0]));
}, 180_000);
afterAll(() => stop?.());

async function teamWithEvents() {
  const prisma = await db();
  const team = await prisma.team.create({ data: { name: "Audited" } });
  const [ada, bob] = await Promise.all([makeUser("Ada"), makeUser("Bob")]);
  await prisma.membership.createMany({
    data: [
      { teamId: team.id, userId: ada.id, role: "admin" },
      { teamId: team.id, userId: bob.id },
    ],
  });
  const server = await prisma.mcpServer.create({ data: { teamId: team.id, name: "files", transport: "http", url: "http://127.0.0.1:1/mcp" } });
  const at = (d: string) => new Date(`${d}T12:00:00.000Z`);
  await prisma.auditEvent.createMany({
    data: [
      {
        teamId: team.id,
        actorId: ada.id,
        action: "mcp.server.create",
        targetType: "mcp-server",
        targetId: server.id,
        data: { name: "old name", transport: "http" },
        createdAt: at("2026-01-10"),
      },
      {
        teamId: team.id,
        actorId: ada.id,
        action: "member.role",
        targetType: "user",
        targetId: bob.id,
        data: { from: "member", to: "admin" },
        createdAt: at("2026-01-11"),
      },
      {
        teamId: team.id,
        actorId: bob.id,
        action: "mcp.server.delete",
        targetType: "mcp-server",
        targetId: "gone",
        data: { name: "scratch", changed: ["url", "headers"] },
        createdAt: at("2026-01-12"),
      },
    ],
  });
  return { team, ada, bob, server };
}

describe("the audit log", () => {
  it("names who, what and the target; details read as label and value", async () => {
    const { team } = await teamWithEvents();
    const { rows, hasMore } = await listAuditEvents(team.id);
    expect(hasMore).toBe(false);
    expect(rows.map((r) => [r.actor, r.label, r.target])).toEqual([
      ["Bob", "Deleted an MCP server", "scratch"],
      ["Ada", "Changed a member's role", "Bob"],
      ["Ada", "Added an MCP server", "files"], // the server's name now
    ]);
    expect(rows[0].details).toEqual([
      { label: "Name", value: "scratch" },
      { label: "Changed", value: "url, headers" },
    ]);
  });

  it("filters by action, member and date range (inclusive days), and only ever shows the team's own events", async () => {
    const { team, ada, bob } = await teamWithEvents();
    const other = await teamWithEvents();
    const actions = async (f: object) => (await listAuditEvents(team.id, auditFilterSchema.parse(f))).rows.map((r) => r.action);
    expect(await actions({ action: "member.role" })).toEqual(["member.role"]);
    expect(await actions({ actor: bob.id })).toEqual(["mcp.server.delete"]);
    expect(await actions({ actor: ada.id, from: "2026-01-11" })).toEqual(["member.role"]);
    expect(await actions({ from: "2026-01-10", to: "2026-01-11" })).toEqual(["member.role", "mcp.server.create"]);
    expect(await actions({ actor: other.ada.id })).toEqual([]);
    // Junk in the query string is ignored, not an error.
    expect(auditFilterSchema.parse({ from: "yesterday", page: "-3", action: 7 })).toEqual({});
    const choices = await auditFilterChoices(team.id);
    expect(choices.actors.map((a) => a.value).sort()).toEqual([ada.id, bob.id].sort());
    expect(choices.actions.map((a) => a.value)).toEqual(["mcp.server.create", "mcp.server.delete", "member.role"]);
  });

  it("pages through the events, 50 at a time, newest first", async () => {
    const { team, ada } = await teamWithEvents();
    const prisma = await db();
    await prisma.auditEvent.createMany({
      data: Array.from({ length: AUDIT_PAGE_SIZE }, (_, i) => ({
        teamId: team.id,
        actorId: ada.id,
        action: "invite.create",
        data: { n: i },
        createdAt: new Date(Date.UTC(2026, 1, 1, 0, i)),
      })),
    });
    const first = await listAuditEvents(team.id);
    const second = await listAuditEvents(team.id, { page: 2 });
    expect(first.rows).toHaveLength(AUDIT_PAGE_SIZE);
    expect(first.hasMore).toBe(true);
    expect(first.rows[0].details).toEqual([{ label: "N", value: String(AUDIT_PAGE_SIZE - 1) }]);
    expect(second.rows.map((r) => r.action)).toEqual(["mcp.server.delete", "member.role", "mcp.server.create"]);
    expect(second.hasMore).toBe(false);
  });

  it("names a tool call that still exists by its tool, even when its event recorded no name; one deleted since reads so", async () => {
    const prisma = await db();
    const { team, ada } = await teamWithEvents();
    const chat = await prisma.chat.create({ data: { teamId: team.id, userId: ada.id } });
    const message = await prisma.message.create({ data: { id: `m_${chat.id}`, chatId: chat.id, role: "assistant" } });
    await prisma.block.create({
      data: { messageId: message.id, ordinal: 0, kind: "tool", status: "output-available", toolCallId: `call_${chat.id}`, toolName: "extras__ask" },
    });
    const gone = await prisma.chat.create({ data: { teamId: team.id, userId: ada.id } });
    const answered = (targetId: string, createdAt: string) => ({
      teamId: team.id,
      actorId: ada.id,
      action: "elicitation.accept",
      targetType: "tool-call",
      targetId,
      data: { chatId: chat.id, mode: "form", fields: ["name"] },
      createdAt: new Date(createdAt),
    });
    await prisma.auditEvent.createMany({ data: [answered(`call_${chat.id}`, "2026-03-02T10:00:00Z"), answered(`call_${gone.id}`, "2026-03-01T10:00:00Z")] });
    await prisma.chat.delete({ where: { id: gone.id } });
    const { rows } = await listAuditEvents(team.id, { action: "elicitation.accept" });
    expect(rows.map((r) => r.target)).toEqual(["extras__ask", "a tool call since removed"]);
  });

  it("decisions on tool calls filter by tool and decision (a time limit's denial apart from a person's), and export as CSV", async () => {
    const prisma = await db();
    const { team, ada, bob } = await teamWithEvents();
    const call = (action: string, actorId: string | null, data: Prisma.InputJsonObject, d: string) => ({
      teamId: team.id,
      actorId,
      action,
      targetType: "tool-call",
      targetId: `call_${d}`,
      data,
      createdAt: new Date(`${d}T09:00:00.000Z`),
    });
    await prisma.auditEvent.createMany({
      data: [
        call("tool.approve", ada.id, { tool: "Files__delete", chatId: "c1" }, "2026-02-01"),
        call("tool.deny", bob.id, { tool: "Files__delete", name: '=HYPERLINK("x")', reason: "not now" }, "2026-02-02"),
        call("tool.deny", null, { tool: "Pay__send", reason: "no decision within 30 minutes", timedOut: true }, "2026-02-03"),
        call("tool.edit", ada.id, { tool: "Pay__send", original: { amount: 5000 }, edited: { amount: 50 } }, "2026-02-04"),
      ],
    });
    const actions = async (filter: Record<string, string>) =>
      (await listAuditEvents(team.id, auditFilterSchema.parse(filter))).rows.map((r) => `${r.actor}:${r.action}`);
    expect(await actions({ decision: "timed-out" })).toEqual(["Time limit:tool.deny"]);
    expect(await actions({ decision: "denied" })).toEqual(["Bob:tool.deny"]);
    expect(await actions({ decision: "approved" })).toEqual(["Ada:tool.approve"]);
    expect(await actions({ decision: "edited" })).toEqual(["Ada:tool.edit"]);
    expect(await actions({ tool: "Pay__" })).toEqual(["Ada:tool.edit", "Time limit:tool.deny"]);
    expect(await actions({ tool: "Files__delete", actor: bob.id })).toEqual(["Bob:tool.deny"]);
    expect(await actions({ decision: "denied", from: "2026-02-03" })).toEqual([]);
    const csv = await auditCsv(team.id, auditFilterSchema.parse({ tool: "Files__delete" }));
    const lines = csv.trim().split("\r\n");
    expect(lines[0]).toBe('"Time (UTC)","Who","Action","What","Target","Details"');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain('"2026-02-02T09:00:00.000Z","Bob","tool.deny","Denied a tool call"');
    // A cell a spreadsheet would run as a formula is defused.
    expect(lines[1]).toContain(`"'=HYPERLINK(""x"")"`);
    expect(lines[1]).not.toMatch(/(^|,)"=/);
  });
});
