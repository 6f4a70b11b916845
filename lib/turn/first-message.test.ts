// A chat's first message (turn-chat.ts, turn-claim.ts, titles.ts, turn-stream.ts): a draft is stored
// by it, the caller's, with the tools chosen for it; the stream names the chat at once (first words)
// and again once the model has titled the first exchange; a title call that fails or answers junk
// leaves the first words; a draft id of someone else's chat, or foreign tools, are 404 and store
// nothing.
import type { LLMock } from "@copilotkit/aimock";
import { describe, expect, it } from "vitest";
import { db } from "../db/client";
import type { TeamContext } from "../teams/team-context";
import { makeUser } from "@/test/support/test-app";
import { readChunks, teamWithProvider, type SseChunk } from "@/test/support/test-turns";
import { DATABASES, runTurn, turnHarness } from "@/test/support/turn-harness";
import { draftChatId } from "../chat/chats";
import { cleanTitle, storeModelTitle, TITLE_INSTRUCTION } from "../chat/titles";
import { newChatSelection } from "../tools/member-tools";

const titlesOf = (chunks: SseChunk[]) => chunks.filter((c) => c.type === "data-title").map((c) => (c.data as { title: string }).title);

describe("cleanTitle", () => {
  it("keeps a short title and refuses answers that are not one", () => {
    expect(cleanTitle('"Tidepool Walk Plan."')).toBe("Tidepool Walk Plan");
    expect(cleanTitle("Title: **Sourdough basics**")).toBe("Sourdough basics");
    expect(cleanTitle("I am a scripted model. You said something I have no script for.")).toBeUndefined();
    expect(cleanTitle("Line one\nLine two")).toBeUndefined();
    expect(cleanTitle("")).toBeUndefined();
    expect(cleanTitle("one two three four five six seven eight nine")).toBeUndefined();
  });
});

let mock: LLMock;
describe.each(DATABASES)("a chat's first message on $name", (driver) => {
  turnHarness((m) => (mock = m), { driver });

  it("a first message sent before the tool picker loaded (no tools in it) starts with the member's new-chat tools, not none", async () => {
    const { ctx } = await teamWithProvider(mock.url);
    mock.onMessage("Quick, before the picker loads", { content: "Here." });
    const id = draftChatId();
    await readChunks(await runTurn(ctx, { chatId: id, text: "Quick, before the picker loads", newChat: {} }));
    const chat = await (await db()).chat.findUniqueOrThrow({ where: { id } });
    expect(chat.toolSelection).toEqual(await newChatSelection(ctx));
    expect(chat.toolSelection).not.toBeNull();
  });

  it("stores the draft as the caller's chat, with its tools, and names it twice: first words, then the model's title", async () => {
    const { ctx } = await teamWithProvider(mock.url);
    mock.onMessage("Plan a tidepool walk for Saturday morning", { content: "Go at low tide, wear boots." });
    mock.on({ systemMessage: [TITLE_INSTRUCTION, "Plan a tidepool walk for Saturday morning"] }, { content: "Saturday Tidepool Walk" });
    const id = draftChatId();
    const chunks = await readChunks(
      await runTurn(ctx, { chatId: id, text: "Plan a tidepool walk for Saturday morning", newChat: { tools: { servers: [], tools: [] } } }, { titles: true }),
    );
    expect(titlesOf(chunks)).toEqual(["Plan a tidepool walk for Saturday morning", "Saturday Tidepool Walk"]);
    // The model's title comes before the turn ends.
    expect(chunks.findIndex((c) => c.type === "data-title" && (c.data as { title: string }).title === "Saturday Tidepool Walk")).toBeLessThan(
      chunks.findIndex((c) => c.type === "finish"),
    );
    const prisma = await db();
    const chat = await prisma.chat.findUniqueOrThrow({ where: { id }, include: { messages: true } });
    expect(chat).toMatchObject({ userId: ctx.user.id, teamId: ctx.team.id, title: "Saturday Tidepool Walk", toolSelection: { servers: [], tools: [] } });
    expect(chat.messages.map((m) => m.role).sort()).toEqual(["assistant", "user"]);
    // The title call asked for a title and offered no tools.
    const call = mock.getRequests().find((r) => JSON.stringify(r.body).includes(TITLE_INSTRUCTION))?.body as { tools?: unknown };
    expect(call.tools).toBeUndefined();

    // The next message is not a first one: no title call, no title part, the title stays.
    mock.onMessage("And what if it rains", { content: "Bring a jacket." });
    const before = mock.getRequests().length;
    const next = await readChunks(await runTurn(ctx, { chatId: id, text: "And what if it rains", newChat: {} }, { titles: true }));
    expect(titlesOf(next)).toEqual([]);
    expect(mock.getRequests().length - before).toBe(1);
    expect((await prisma.chat.findUniqueOrThrow({ where: { id } })).title).toBe("Saturday Tidepool Walk");
  });

  it.each([
    ["a tool call", { toolCalls: [{ name: "rename_chat", arguments: "{}" }] }],
    ["prose instead of a title", { content: "I am a scripted model. You said something I have no script for." }],
    ["an error", { error: { message: "title model down", type: "server_error" }, status: 500 }],
  ])("keeps the first words when the title call gives %s", async (what, response) => {
    const { ctx } = await teamWithProvider(mock.url);
    const question = `Compare two sourdough starters (${what})`;
    mock.onMessage(question, { content: "Rye is faster." });
    mock.on({ systemMessage: [TITLE_INSTRUCTION, question] }, response as never);
    const id = draftChatId();
    const chunks = await readChunks(await runTurn(ctx, { chatId: id, text: question, newChat: {} }, { titles: true }));
    expect(titlesOf(chunks)).toEqual([question]);
    expect(chunks.some((c) => c.type === "finish")).toBe(true);
    const prisma = await db();
    expect((await prisma.chat.findUniqueOrThrow({ where: { id } })).title).toBe(question);
  });

  it("refuses another user's chat id, a malformed draft id and foreign tools with 404, and stores nothing", async () => {
    const { ctx, chat: theirs } = await teamWithProvider(mock.url);
    const prisma = await db();
    const user = await makeUser("neighbour");
    await prisma.membership.create({ data: { teamId: ctx.team.id, userId: user.id, role: "member" } });
    const neighbour: TeamContext = { ...ctx, user: { id: user.id, name: user.name, email: user.email } };
    const other = await teamWithProvider(mock.url);
    const [foreignServer] = await Promise.all([
      prisma.mcpServer.create({ data: { teamId: other.ctx.team.id, name: "theirs", transport: "http", url: "http://127.0.0.1:9/mcp" } }),
    ]);
    const chats = await prisma.chat.count();
    const refused = (request: Parameters<typeof runTurn>[1]) => expect(runTurn(neighbour, request)).rejects.toMatchObject({ status: 404 });
    await refused({ chatId: theirs.id, text: "mine now", newChat: {} });
    await refused({ chatId: "Not-A-Draft-Id!", text: "hello", newChat: {} });
    await refused({ chatId: draftChatId(), text: "hello" }); // no newChat: an unknown id is just unknown
    await refused({ chatId: draftChatId(), text: "hello", newChat: { tools: { servers: [foreignServer.id], tools: [] } } });
    expect(await prisma.chat.count()).toBe(chats);
    expect(await prisma.message.count({ where: { chatId: theirs.id } })).toBe(0);
  });

  it("never replaces a title the person changed while the model was naming the chat", async () => {
    const { chat } = await teamWithProvider(mock.url);
    const prisma = await db();
    await prisma.chat.update({ where: { id: chat.id }, data: { title: "Renamed by me" } });
    expect(await storeModelTitle(chat.id, "First words", "Model title")).toBe(false);
    expect((await prisma.chat.findUniqueOrThrow({ where: { id: chat.id } })).title).toBe("Renamed by me");
  });
});
