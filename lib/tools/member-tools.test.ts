// The tools picker's rules on a real database: "Never offer" tools are not offered to members (nor
// kept in a saved choice), "asks first" comes from the server's policy (per-tool, server default, then
// annotations) and the member's always-allow, a new chat starts with the member's last choice or the
// team's defaults, and nobody reaches another team's servers or another member's choice.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../db/client";
import type { TeamContext } from "../teams/team-context";
import { makeUser, startTestApp, DRIVERS } from "../../test/support/test-app";
import { chatTools, newChatTools, setChatTools, setNewChatTools } from "../chat/chat-tools";
import { createChat } from "../chat/chats";
import { chatSelection, pickerServers } from "./member-tools";
import { setServerOnByDefault, setServerTrustReadOnly, setToolPolicy } from "./policy-admin";
import { setAlwaysAllow } from "./preferences";
import { acquire, evict } from "../mcp/pool";
import { serverConfig } from "../mcp/servers";
import { syncToolRows } from "../mcp/tool-rows";
import { assembleTools } from "./tool-set";
import { startTestServer } from "../../test/support/test-servers";

let stop: () => Promise<void>;
beforeAll(async () => {
  ({ stop } = await startTestApp(DRIVERS[0]));
}, 180_000);
afterAll(() => stop?.());

async function join(teamId: string, role: "admin" | "member", name: string): Promise<TeamContext> {
  const prisma = await db();
  const user = await makeUser(name);
  await prisma.membership.create({ data: { teamId, userId: user.id, role } });
  const team = { id: teamId, name: "T", role };
  return { user: { id: user.id, name: user.name, email: user.email }, team, teams: [team] };
}

/** A team with an admin, a member and a server "files" with read (read-only), write, wipe and off (disabled). */
async function team() {
  const prisma = await db();
  const row = await prisma.team.create({ data: { name: "T" } });
  const admin = await join(row.id, "admin", "admin");
  const member = await join(row.id, "member", "member");
  const server = await prisma.mcpServer.create({ data: { teamId: row.id, name: "files", transport: "http", url: "http://127.0.0.1:1/mcp" } });
  const tool = (name: string, extra: object = {}) => prisma.mcpTool.create({ data: { serverId: server.id, name, ...extra } });
  const [read, write, wipe, off] = await Promise.all([
    tool("read", { annotations: { readOnlyHint: true } }),
    tool("write", { annotations: { readOnlyHint: false } }),
    tool("wipe", { policy: "deny" }),
    tool("off", { enabled: false }),
  ]);
  return { admin, member, server, read, write, wipe, off };
}

const toolNames = async (ctx: TeamContext) => (await pickerServers(ctx)).flatMap((s) => s.tools.map((t) => `${t.name}${t.asksFirst ? " (asks first)" : ""}`));

describe("the tools a member may pick", () => {
  it("leaves out Never-offer and disabled tools; asks-first follows the server's policy and the member's always-allow", async () => {
    const { admin, member, server, read, write } = await team();
    // New tools ask, even one the server marks read-only (annotations are hints)…
    expect(await toolNames(member)).toEqual(["read (asks first)", "write (asks first)"]);
    // …until an admin trusts this server's read-only hints.
    await setServerTrustReadOnly(admin, server.id, true);
    expect(await toolNames(member)).toEqual(["read", "write (asks first)"]);
    // An admin-only tool asks whatever the member chose, and says who decides.
    await setToolPolicy(admin, write.id, "admin");
    expect((await pickerServers(member)).flatMap((s) => s.tools).find((t) => t.name === "write")).toMatchObject({ asksFirst: true, approver: "admin" });
    // The admin's policy wins over the annotations, both ways.
    await setToolPolicy(admin, read.id, "ask");
    await setToolPolicy(admin, write.id, "auto");
    expect(await toolNames(member)).toEqual(["read (asks first)", "write"]);
    // Always allow lifts "asks first" for that member only.
    await setAlwaysAllow(member, read.id, true);
    expect(await toolNames(member)).toEqual(["read", "write"]);
    expect(await toolNames(admin)).toEqual(["read (asks first)", "write"]);
    // A tool set to Never offer disappears from the picker.
    await setToolPolicy(admin, write.id, "deny");
    expect(await toolNames(member)).toEqual(["read"]);
  });

  it("a saved choice keeps only tools the member may use; another team's ids are 404 and save nothing", async () => {
    const { member, server, read, wipe, off } = await team();
    const { id } = await createChat(member);
    const saved = await setChatTools(member, id, { servers: [server.id], tools: [read.id, wipe.id, off.id] });
    expect(saved).toEqual({ servers: [server.id], tools: [read.id] });
    const stranger = await team();
    await expect(setChatTools(member, id, { servers: [stranger.server.id], tools: [stranger.read.id] })).rejects.toMatchObject({ status: 404 });
    await expect(setNewChatTools(member, { servers: [], tools: [stranger.read.id] })).rejects.toMatchObject({ status: 404 });
    expect((await chatTools(member, id)).selection).toEqual(saved);
    expect((await newChatTools(member)).selection).toEqual(saved);
  });
});

describe("tools in new chats", () => {
  it("start from the team's defaults, then from the member's last choice; a chat keeps the choice it started with", async () => {
    const { admin, member, server, read, write } = await team();
    const first = await createChat(member);
    expect((await chatTools(member, first.id)).selection).toEqual({ servers: [], tools: [] });

    await setServerOnByDefault(admin, server.id, true);
    const second = await createChat(member);
    expect((await chatTools(member, second.id)).selection).toEqual({ servers: [server.id], tools: [read.id, write.id] });
    // The first chat had already taken its (empty) choice.
    expect((await chatTools(member, first.id)).selection).toEqual({ servers: [], tools: [] });

    // The member switches write off in a chat: their next new chat starts that way, the team default notwithstanding.
    await setChatTools(member, second.id, { servers: [server.id], tools: [read.id] });
    const third = await createChat(member);
    const prisma = await db();
    // A chat row made some other way, without a choice, takes it when its picker is first read.
    const fourth = await prisma.chat.create({ data: { teamId: member.team.id, userId: member.user.id } });
    expect(await chatSelection(member, fourth)).toEqual({ servers: [server.id], tools: [read.id] });
    expect((await chatTools(member, third.id)).selection).toEqual({ servers: [server.id], tools: [read.id] });
    // Another member's choice is theirs alone: they get the team default.
    const other = await createChat(admin);
    expect((await chatTools(admin, other.id)).selection).toEqual({ servers: [server.id], tools: [read.id, write.id] });

    // Turning everything off is a choice too.
    await setNewChatTools(member, { servers: [], tools: [] });
    expect((await chatTools(member, (await createChat(member)).id)).selection).toEqual({ servers: [], tools: [] });
  });

  it("on-by-default is the team's own setting: another team's admin gets 404; each change is audited", async () => {
    const { admin, server } = await team();
    const stranger = await team();
    await expect(setServerOnByDefault(stranger.admin, server.id, true)).rejects.toMatchObject({ status: 404 });
    await setServerOnByDefault(admin, server.id, true);
    await setServerOnByDefault(admin, server.id, true); // no change, no event
    await setServerOnByDefault(admin, server.id, false);
    const prisma = await db();
    const events = await prisma.auditEvent.findMany({ where: { targetId: server.id }, orderBy: { createdAt: "asc" } });
    expect(events.map((e) => e.action)).toEqual(["mcp.server.default-on", "mcp.server.default-off"]);
    expect((await prisma.mcpServer.findUniqueOrThrow({ where: { id: server.id } })).onByDefault).toBe(false);
  });

  it("counts the tools it offers as a turn would offer them: not a tool for an MCP app only, not a Never-offer one", async () => {
    const { admin, member } = await team();
    const running = await startTestServer();
    const prisma = await db();
    const row = await prisma.mcpServer.create({ data: { teamId: member.team.id, name: "extras", transport: "http", url: running.url, trustReadOnly: true } });
    try {
      await syncToolRows(row.id, (await acquire(serverConfig(row))).tools); // as "Test connection" stores them
      const echo = await prisma.mcpTool.findFirstOrThrow({ where: { serverId: row.id, name: "echo" } });
      await setToolPolicy(admin, echo.id, "deny");
      const picker = (await pickerServers(member)).find((s) => s.id === row.id)!;
      const names = picker.tools.map((t) => t.name);
      expect(names).not.toContain("card_stamp"); // visibility ["app"]: the model never gets it
      expect(names).not.toContain("echo");
      // The badge's count is the list's, and both are what a turn with all of them chosen offers.
      expect(picker.status.toolCount).toBe(names.length);
      const turn = await assembleTools({
        teamId: member.team.id,
        userId: member.user.id,
        selection: { servers: [row.id], tools: picker.tools.map((t) => t.id) },
        decider: async () => (t) => ({ offer: t.toolName !== "echo" }),
      });
      expect(turn.offered.map((t) => t.toolName).sort()).toEqual([...names].sort());
    } finally {
      await evict(row.id);
      await running.stop();
    }
  });
});
