// What MCP tools return beyond text, end to end below the browser (a turn against the scripted upstream
// and our test MCP server): images reach a model with vision as images — inside the tool result where
// the API takes them, in a user message after it where it does not — and a text-only model reads a
// placeholder, never base64; earlier results in the history read the same. Structured content that
// breaks its output schema is an InvalidOutput error.
import { describe, expect, it } from "vitest";
import type { ProviderKind } from "../db/generated/client";
import { chatWithServerTools, mcpChatStack } from "@/test/support/mcp-chats";
import { storedAnswer } from "@/test/support/test-turns";
import { runTurn, storedTurn } from "@/test/support/turn-harness";

const stack = mcpChatStack();
const chatWithTools = (over: { kind?: ProviderKind; vision?: boolean } = {}) => chatWithServerTools(stack, over);

function script(prompt: string, tool: string, args: unknown = {}) {
  stack.mock.addFixture({
    match: { userMessage: prompt, hasToolResult: false },
    response: { toolCalls: [{ name: tool, arguments: JSON.stringify(args), id: `call_${prompt.replace(/\W/g, "_")}` }] },
  });
  stack.mock.addFixture({ match: { userMessage: prompt, hasToolResult: true }, response: { content: `Finished ${prompt}.` } });
}

const DOT = "iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAIAAAAmkwkpAAAAEElEQVR4nGP4z8AARwzEcQCukw/x0F8jngAAAABJRU5ErkJggg==";
const bodiesFor = (prompt: string) =>
  stack.mock
    .getRequests()
    .filter((r) => JSON.stringify(r.body).includes(prompt))
    .map((r) => r.body as Record<string, unknown>);

async function imageTurn(prompt: string, over: { kind?: ProviderKind; vision?: boolean }) {
  const { ctx, chat } = await chatWithTools(over);
  script(prompt, "t__image");
  const done = storedTurn();
  await (await runTurn(ctx, { chatId: chat.id, text: prompt }, { onStored: done.onStored })).text();
  await done.promise;
  return { ctx, chat, after: bodiesFor(prompt).at(-1)! };
}

describe("images from tools", () => {
  it("a text-only model reads a placeholder, not base64; the block keeps the image", async () => {
    const { after, chat } = await imageTurn("dot for text model", {});
    const sent = JSON.stringify(after);
    expect(sent).toContain("not shown — this model does not accept images");
    expect(sent).not.toContain(DOT);
    const tool = (await storedAnswer(chat.id)).blocks.find((b) => b.kind === "tool")!;
    expect(tool.output).toMatchObject({ content: [{ type: "text" }, { type: "image", data: DOT, mimeType: "image/png" }] });
  });

  it("Chat Completions with vision: the image follows the tool result as an image part of a user message, in the turn and in the history", async () => {
    const { after, ctx, chat } = await imageTurn("dot for vision chat", { vision: true });
    const messages = after.messages as { role: string; content: unknown }[];
    const tool = messages.find((m) => m.role === "tool")!;
    expect(JSON.stringify(tool.content)).not.toContain(DOT);
    const next = messages[messages.indexOf(tool) + 1];
    expect(next.role).toBe("user");
    expect(JSON.stringify(next.content)).toContain(`"url":"data:image/png;base64,${DOT}"`);
    // The next turn reads the earlier result the same way.
    stack.mock.addFixture({ match: { userMessage: "what colour was it" }, response: { content: "Red." } });
    const done = storedTurn();
    await (await runTurn(ctx, { chatId: chat.id, text: "what colour was it" }, { onStored: done.onStored })).text();
    await done.promise;
    const later = bodiesFor("what colour was it").at(-1)!.messages as { role: string; content: unknown }[];
    expect(JSON.stringify(later.find((m) => m.role === "tool")!.content)).not.toContain(DOT);
    expect(JSON.stringify(later)).toContain(`data:image/png;base64,${DOT}`);
  });

  it("Chat Completions with vision over several steps: each tool's image follows its result once, never twice", async () => {
    // AI SDK 7 carries the messages prepareStep returned into the next step: images already moved stay moved.
    const prompt = "two dots in two steps";
    const toolCount = (req: { messages: { role: string }[] }) => req.messages.filter((m) => m.role === "tool").length;
    const mine = (req: { messages: { role: string; content: unknown }[] }) => JSON.stringify(req.messages).includes(prompt);
    for (const n of [0, 1]) {
      stack.mock.addFixture({
        match: { predicate: (req) => mine(req) && toolCount(req) === n },
        response: { toolCalls: [{ name: "t__image", arguments: "{}", id: `call_two_${n}` }] },
      });
    }
    stack.mock.addFixture({ match: { predicate: (req) => mine(req) && toolCount(req) === 2 }, response: { content: "Two dots." } });
    const { ctx, chat } = await chatWithTools({ vision: true });
    const done = storedTurn();
    await (await runTurn(ctx, { chatId: chat.id, text: prompt }, { onStored: done.onStored })).text();
    expect((await done.promise).status).toBe("done");
    const [, second, third] = bodiesFor(prompt).map((b) => b.messages as { role: string; content: unknown }[]);
    const imageMessages = (messages: { role: string; content: unknown }[]) =>
      messages.filter((m) => m.role === "user" && JSON.stringify(m.content).includes(DOT));
    expect(imageMessages(second)).toHaveLength(1);
    expect(imageMessages(third)).toHaveLength(2);
    for (const m of third.filter((m) => m.role === "tool")) {
      expect(JSON.stringify(m.content)).not.toContain(DOT);
      expect(imageMessages([third[third.indexOf(m) + 1]])).toHaveLength(1);
    }
  });

  it("the Responses API with vision: the image is part of the tool's output", async () => {
    const { after } = await imageTurn("dot for vision responses", { vision: true, kind: "openai_responses" });
    // aimock's journal shows a Responses request in its chat form: the function_call_output is the tool message.
    const tool = (after.messages as { role: string; content: unknown }[]).find((m) => m.role === "tool")!;
    expect(tool.content).toEqual([
      { type: "input_text", text: "A red dot.\n\n[image image/png, attached]" },
      { type: "input_image", image_url: `data:image/png;base64,${DOT}` },
    ]);
  });
});

describe("structured content", () => {
  it("content that matches the output schema is kept; content that breaks it is an InvalidOutput error", async () => {
    const { ctx, chat } = await chatWithTools();
    script("weather ok", "t__weather", {});
    script("weather broken", "t__weather", { broken: true });
    const ok = storedTurn();
    const good = await (await runTurn(ctx, { chatId: chat.id, text: "weather ok" }, { onStored: ok.onStored })).text();
    await ok.promise;
    expect(good).toContain('"structuredContent":{"temperature":21.5,"conditions":"Sunny"}');
    const bad = storedTurn();
    const broken = await (await runTurn(ctx, { chatId: chat.id, text: "weather broken" }, { onStored: bad.onStored })).text();
    await bad.promise;
    expect(broken).toMatch(/"errorText":"\[ERROR:InvalidOutput\] [^"]*structured content/);
    expect((await storedAnswer(chat.id)).blocks.find((b) => b.kind === "tool")).toMatchObject({ status: "output-error", errorCode: "InvalidOutput" });
  });
});
