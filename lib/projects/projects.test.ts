// Projects, against a real database and a scripted upstream: who sees, edits and files chats in a
// project (another member's personal project, another team's, forged ids: 404; a member who sees a
// shared project but did not make it: 403 on changes; bad input: 400); a shared project shows its
// chats to the team read-only; its instructions reach the model's system prompt (and stop when the
// chat leaves it); its default model and tools are those of chats started in it.
import type { LLMock } from "@copilotkit/aimock";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { db } from "../db/client";
import { errorResponse } from "../http";
import type { TeamContext } from "../teams/team-context";
import { chatAccess } from "../sharing/access";
import { createChat, draftChatId, updateChat, updateChatSchema } from "../chat/chats";
import { readJson } from "../security/limits";
import { readChunks, teamWithProvider, textOf } from "@/test/support/test-turns";
import { teamMember } from "@/test/support/test-app";
import { DATABASES, runTurn, storedTurn, turnHarness } from "@/test/support/turn-harness";
import { createProject, createProjectSchema, deleteProject, getProject, listProjects, updateProject, updateProjectSchema } from "./projects";

let mock: LLMock;

type Sent = { model?: string; messages?: { role: string; content: unknown }[] };
const lastSent = (): Sent => (mock.getLastRequest()?.body ?? {}) as Sent;
const systemText = (sent: Sent) =>
  (sent.messages ?? [])
    .filter((m) => m.role === "system")
    .map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)))
    .join("\n");

async function turn(ctx: TeamContext, request: Parameters<typeof runTurn>[1]) {
  const done = storedTurn();
  const chunks = await readChunks(await runTurn(ctx, request, { onStored: done.onStored }));
  await done.promise;
  return textOf(chunks);
}

/** The HTTP status a call fails with, as the routes answer it (errorResponse of lib/http.ts). */
async function statusOf(p: Promise<unknown>): Promise<number | "ok"> {
  try {
    await p;
    return "ok";
  } catch (err) {
    return errorResponse(err).status;
  }
}

/** A body read as the routes read it (readJson with the route's schema). */
const asRouteReads = <T extends z.ZodType>(schema: T, body: unknown) =>
  readJson(new Request("http://parley.test/api", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }), schema);

describe.each(DATABASES)("projects on $name", (driver) => {
  turnHarness((m) => (mock = m), { driver });

  it("a personal project is its creator's alone; other members, other teams and forged ids get 404", async () => {
    const { ctx: owner } = await teamWithProvider(mock.url);
    const colleague = await teamMember(owner.team.id, "Colleague");
    const { ctx: outsider } = await teamWithProvider(mock.url);
    const mine = await createProject(owner, { name: "Mine", instructions: "Secret plans." });
    const colleagueChat = await createChat(colleague);

    expect((await listProjects(owner)).map((p) => p.name)).toEqual(["Mine"]);
    expect(await listProjects(colleague)).toEqual([]);
    expect(await listProjects(outsider)).toEqual([]);
    for (const caller of [colleague, outsider]) {
      expect(await statusOf(getProject(caller, mine.id))).toBe(404);
      expect(await statusOf(updateProject(caller, mine.id, { name: "Taken" }))).toBe(404);
      expect(await statusOf(deleteProject(caller, mine.id))).toBe(404);
      expect(await statusOf(createChat(caller, { projectId: mine.id }))).toBe(404);
    }
    expect(await statusOf(updateChat(colleague, colleagueChat.id, { projectId: mine.id }))).toBe(404);
    // Forged ids, and a chat of someone else filed into one's own project.
    expect(await statusOf(getProject(owner, "no-such-project"))).toBe(404);
    expect(await statusOf(updateChat(owner, colleagueChat.id, { projectId: mine.id }))).toBe(404);
    expect(await statusOf(updateChat(owner, (await createChat(owner)).id, { projectId: "forged" }))).toBe(404);
    expect((await getProject(owner, mine.id)).name).toBe("Mine");
  });

  it("bad input is a 400 and stores nothing", async () => {
    const { ctx } = await teamWithProvider(mock.url);
    const other = await teamWithProvider(mock.url, "openai_chat", "elsewhere");
    // Refused by the routes' schemas (POST /api/projects, PATCH /api/projects/<id> and /api/chat/<id>).
    const bad: unknown[] = [
      { name: "" },
      { name: "x".repeat(101) },
      { name: "Long", instructions: "x".repeat(8_001) },
      { name: "Odd", colour: "red" },
      { name: "Model", defaultModelId: "not an id!" },
    ];
    for (const input of bad) expect(await statusOf(asRouteReads(createProjectSchema, input))).toBe(400);
    expect(await statusOf(asRouteReads(updateProjectSchema, {}))).toBe(400);
    expect(await statusOf(asRouteReads(updateChatSchema, { projectId: 42 }))).toBe(400);
    // Refused against the team: another team's model.
    expect(await statusOf(createProject(ctx, { name: "Model", defaultModelId: other.model.id }))).toBe(400);
    await createProject(ctx, { name: "Fine" });
    expect((await listProjects(ctx)).map((p) => p.name)).toEqual(["Fine"]);
  });

  it("a shared project shows its chats to the team read-only; its creator and admins edit it, others 403", async () => {
    const { ctx: creator } = await teamWithProvider(mock.url);
    const prisma = await db();
    await prisma.membership.update({ where: { teamId_userId: { teamId: creator.team.id, userId: creator.user.id } }, data: { role: "member" } });
    const creatorCtx: TeamContext = { ...creator, team: { ...creator.team, role: "member" } };
    const colleague = await teamMember(creator.team.id, "Colleague");
    const admin = await teamMember(creator.team.id, "Admin", "admin");
    const { ctx: outsider } = await teamWithProvider(mock.url);
    const team = await createProject(creatorCtx, { name: "Launch", shared: true });
    const theirs = await createChat(colleague);
    await updateChat(colleague, theirs.id, { projectId: team.id, title: "Colleague's notes" });

    // Filing it there shows the colleague's chat to the team (read-only), not to other teams.
    const seen = await getProject(creatorCtx, team.id);
    expect(seen.chats.map((c) => [c.title, c.mine])).toEqual([["Colleague's notes", false]]);
    expect((await chatAccess(creatorCtx, theirs.id)).owner).toBe(false);
    expect(await statusOf(chatAccess(outsider, theirs.id))).toBe(404);
    expect(await statusOf(getProject(outsider, team.id))).toBe(404);

    expect(await statusOf(updateProject(colleague, team.id, { name: "Mine now" }))).toBe(403);
    expect(await statusOf(deleteProject(colleague, team.id))).toBe(403);
    expect((await updateProject(admin, team.id, { name: "Launch day" })).name).toBe("Launch day");

    // Personal again: the colleague's chat leaves it, and the team no longer sees either.
    await updateProject(creatorCtx, team.id, { shared: false });
    expect(await statusOf(getProject(colleague, team.id))).toBe(404);
    expect((await getProject(creatorCtx, team.id)).chats).toEqual([]);
    expect(await statusOf(chatAccess(creatorCtx, theirs.id))).toBe(404);
    expect((await prisma.chat.findUniqueOrThrow({ where: { id: theirs.id } })).projectId).toBeNull();
  });

  it("the project's instructions reach the model in its chats, and stop when a chat leaves it", async () => {
    const { ctx, chat } = await teamWithProvider(mock.url);
    const project = await createProject(ctx, { name: "Pirates", instructions: "Answer like a pirate." });
    mock.on({ userMessage: "project: hello", systemMessage: "Answer like a pirate." }, { content: "Arr, hello!" });
    mock.onMessage("project: hello", { content: "Hello." });

    expect(await turn(ctx, { chatId: chat.id, text: "project: hello" })).toBe("Hello.");
    expect(systemText(lastSent())).toBe("");

    await updateChat(ctx, chat.id, { projectId: project.id });
    expect(await turn(ctx, { chatId: chat.id, text: "project: hello" })).toBe("Arr, hello!");
    expect(systemText(lastSent())).toContain("belongs to a project");

    await updateChat(ctx, chat.id, { projectId: null });
    expect(await turn(ctx, { chatId: chat.id, text: "project: hello" })).toBe("Hello.");
    expect(systemText(lastSent())).toBe("");
  });

  it("a chat started in a project takes its default model and tools, and is filed there", async () => {
    const { ctx, provider } = await teamWithProvider(mock.url, "openai_chat", "team-model");
    const prisma = await db();
    const projectModel = await prisma.model.create({ data: { providerId: provider.id, modelId: "project-model", displayName: "Project model" } });
    const server = await prisma.mcpServer.create({ data: { teamId: ctx.team.id, name: "files", transport: "http", url: "http://127.0.0.1:1/mcp" } });
    const tool = await prisma.mcpTool.create({ data: { serverId: server.id, name: "read" } });
    const tools = { servers: [server.id], tools: [tool.id] };
    const project = await createProject(ctx, { name: "Research", defaultModelId: projectModel.id, tools, instructions: "Cite sources." });
    expect((await getProject(ctx, project.id)).tools).toEqual(tools);

    // Stored at once (POST /api/chats {projectId}).
    const stored = await createChat(ctx, { projectId: project.id });
    expect(await prisma.chat.findUniqueOrThrow({ where: { id: stored.id }, select: { modelId: true, toolSelection: true, projectId: true } })).toEqual({
      modelId: projectModel.id,
      toolSelection: tools,
      projectId: project.id,
    });

    // A draft, stored by its first message (the browser's New chat in this project), without tools of its own.
    await prisma.project.update({ where: { id: project.id }, data: { toolSelection: { servers: [], tools: [] } } });
    mock.on({ userMessage: "project: which model", model: "project-model" }, { content: "Answered by project-model." });
    mock.onMessage("project: which model", { content: "Answered by another model." });
    const draft = draftChatId();
    expect(await turn(ctx, { chatId: draft, text: "project: which model", newChat: { projectId: project.id } })).toBe("Answered by project-model.");
    expect(systemText(lastSent())).toContain("Cite sources.");
    expect(await prisma.chat.findUniqueOrThrow({ where: { id: draft }, select: { modelId: true, projectId: true } })).toEqual({
      modelId: projectModel.id,
      projectId: project.id,
    });
    expect((await getProject(ctx, project.id)).chats.map((c) => c.id).sort()).toEqual([stored.id, draft].sort());

    // Another member's personal project cannot be a draft's: 404, nothing stored.
    const colleague = await teamMember(ctx.team.id, "Colleague");
    expect(await statusOf(runTurn(colleague, { chatId: draftChatId(), text: "project: which model", newChat: { projectId: project.id } }))).toBe(404);
    expect(await prisma.chat.count({ where: { userId: colleague.user.id } })).toBe(0);

    // Deleting the project keeps its chats, out of any project.
    await deleteProject(ctx, project.id);
    expect((await prisma.chat.findUniqueOrThrow({ where: { id: draft } })).projectId).toBeNull();
  });
});
