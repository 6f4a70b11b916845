// MCP servers asking the person during a tool call (elicitation), end to end below the browser: a turn
// against the scripted upstream and our test MCP server on loopback. The question is stored and shown
// in the call's block; only the chat's owner answers, once, and the server checks the answer against
// the schema (defaults applied) before the call goes on; the event is audited without the content; a
// question nobody answers ends the call with a visible Timeout.
import { describe, expect, it, vi } from "vitest";
import { db } from "../db/client";
import type { TeamContext } from "../teams/team-context";
import { makeUser, rejection } from "@/test/support/test-app";
import { chatWithServerTools, mcpChatStack } from "@/test/support/mcp-chats";
import { readUntil, storedAnswer, type SseChunk } from "@/test/support/test-turns";
import { runTurn, storedTurn } from "@/test/support/turn-harness";
import { answerElicitation } from "./elicitations";

const stack = mcpChatStack();
const chatWithTools = (over: { callTimeoutMs?: number } = {}) => chatWithServerTools(stack, over);

function script(prompt: string, tool: string, args: unknown = {}) {
  stack.mock.addFixture({
    match: { userMessage: prompt, hasToolResult: false },
    response: { toolCalls: [{ name: tool, arguments: JSON.stringify(args), id: `call_${prompt.replace(/\W/g, "_")}` }] },
  });
  stack.mock.addFixture({ match: { userMessage: prompt, hasToolResult: true }, response: { content: `Finished ${prompt}.` } });
}

type Asked = { id: string; mode: string; message: string; fields?: { key: string; kind: string; secretLike: boolean; default?: unknown }[]; domain?: string };
const askedIn = (chunks: SseChunk[]) =>
  chunks.map((c) => (c.type === "tool-output-available" && c.preliminary ? (c.output as { elicitation?: Asked }).elicitation : undefined)).find(Boolean);

async function startAsking(ctx: TeamContext, chatId: string, text: string) {
  const done = storedTurn();
  let asked: Asked | undefined;
  const { rest } = await readUntil(await runTurn(ctx, { chatId, text }, { onStored: done.onStored }), (chunks) => !!(asked = askedIn(chunks)));
  return { asked: asked!, rest, stored: done.promise };
}

async function otherMember(ctx: TeamContext): Promise<TeamContext> {
  const prisma = await db();
  const user = await makeUser("other");
  await prisma.membership.create({ data: { teamId: ctx.team.id, userId: user.id, role: "admin" } });
  return { ...ctx, user: { id: user.id, name: user.name, email: user.email } };
}

describe("elicitation", () => {
  it("a form question waits in the block; only the owner answers, checked against the schema, once; the call gets the answer with defaults", async () => {
    const { ctx, chat } = await chatWithTools();
    script("ask me", "t__ask");
    const { asked, rest, stored } = await startAsking(ctx, chat.id, "ask me");
    expect(asked).toMatchObject({ mode: "form", message: "Tell me about you." });
    expect(asked.fields?.map((f) => `${f.key}:${f.kind}`)).toEqual([
      "name:string",
      "email:string",
      "site:string",
      "day:string",
      "when:string",
      "count:integer",
      "ratio:number",
      "agree:boolean",
      "colour:enum",
      "size:enum",
      "tags:multi",
      "password:string",
    ]);
    expect(asked.fields?.find((f) => f.key === "password")?.secretLike).toBe(true);
    expect(asked.fields?.find((f) => f.key === "name")?.secretLike).toBe(false);

    // Stored: a reload shows the same question (the block's running output), and the row waits.
    const prisma = await db();
    await vi.waitFor(async () => {
      const block = (await storedAnswer(chat.id)).blocks.find((b) => b.kind === "tool");
      expect((block?.output as { elicitation?: { id: string } } | null)?.elicitation?.id).toBe(asked.id);
    });
    expect(await prisma.elicitation.findUniqueOrThrow({ where: { id: asked.id } })).toMatchObject({ status: "pending", mode: "form", chatId: chat.id });

    // Another member of the same team cannot see or answer it.
    expect((await rejection(answerElicitation(await otherMember(ctx), asked.id, { action: "accept", content: { name: "Mallory" } }))).status).toBe(404);
    // Content that does not fit the schema is refused field by field, and nothing is stored.
    const bad = await rejection(
      answerElicitation(ctx, asked.id, { action: "accept", content: { email: "not-an-email", count: 99, tags: ["a", "zzz"], extra: "x" } }),
    );
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.fieldErrors ?? {}).sort()).toEqual(["count", "email", "extra", "name", "tags"]);
    expect((await prisma.elicitation.findUniqueOrThrow({ where: { id: asked.id } })).status).toBe("pending");

    await answerElicitation(ctx, asked.id, { action: "accept", content: { name: "Ada", email: "ada@example.com", day: "2026-11-24" } });
    expect((await rejection(answerElicitation(ctx, asked.id, { action: "decline" }))).status).toBe(409);

    const chunks = await rest;
    const result = chunks.find((c) => c.type === "tool-output-available" && !c.preliminary) as unknown as { output: { content: { text: string }[] } };
    const answered = JSON.parse(result.output.content[0].text.replace(/^Answer: accept /, ""));
    // Omitted fields took the schema's defaults on the server.
    expect(answered).toEqual({ name: "Ada", email: "ada@example.com", day: "2026-11-24", count: 3, agree: false, colour: "green", tags: ["a"] });
    await stored;
    const event = await prisma.auditEvent.findFirstOrThrow({ where: { action: "elicitation.accept", targetId: "call_ask_me" } });
    expect(event.actorId).toBe(ctx.user.id);
    expect(JSON.stringify(event.data)).not.toContain("Ada");
    expect(event.data).toMatchObject({ chatId: chat.id, fields: expect.arrayContaining(["name", "email"]) });
  });

  it("a URL question shows its domain; declining reaches the server", async () => {
    const { ctx, chat } = await chatWithTools();
    script("open the link", "t__ask_url", { url: "https://billing.example.com/sign-in?x=1" });
    const { asked, rest } = await startAsking(ctx, chat.id, "open the link");
    expect(asked).toMatchObject({ mode: "url", domain: "billing.example.com", message: "Sign in to the billing system." });
    await answerElicitation(ctx, asked.id, { action: "decline" });
    const result = (await rest).find((c) => c.type === "tool-output-available" && !c.preliminary) as unknown as { output: { content: { text: string }[] } };
    expect(result.output.content[0].text).toBe("URL answer: decline");
  });

  it("a question nobody answers ends the call with a visible Timeout at the tool's time limit, and expires", async () => {
    const { ctx, chat } = await chatWithTools({ callTimeoutMs: 1500 });
    script("ask and wait", "t__ask");
    const { asked, rest, stored } = await startAsking(ctx, chat.id, "ask and wait");
    const err = (await rest).find((c) => c.type === "tool-output-error") as unknown as { errorText: string };
    expect(err.errorText).toBe("[ERROR:Timeout] No answer to the server's question within 1.5 s (the tool's time limit); the call ended.");
    await stored;
    const prisma = await db();
    await vi.waitFor(async () => expect((await prisma.elicitation.findUniqueOrThrow({ where: { id: asked.id } })).status).toBe("expired"));
    expect((await rejection(answerElicitation(ctx, asked.id, { action: "accept", content: { name: "Late" } }))).message).toMatch(/expired/);
    const tool = (await storedAnswer(chat.id)).blocks.find((b) => b.kind === "tool")!;
    expect(tool).toMatchObject({ status: "output-error", errorCode: "Timeout" });
  });
});
