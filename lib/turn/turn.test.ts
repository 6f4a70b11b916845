// runTurn against a scripted upstream (aimock on loopback), for both OpenAI wire formats: what the
// browser receives and what is stored must agree, and every failure ends in a visible block.
import type { LLMock } from "@copilotkit/aimock";
import { describe, expect, it } from "vitest";
import { db } from "../db/client";
import { errorResponse } from "../http";
import { Unauthorized } from "../errors";
import { runTurn as startTurn } from "./turn";
import { readChunks, storedAnswer, teamWithProvider, textOf } from "@/test/support/test-turns";
import { adderTool, DATABASES, runTurn, storedTurn, turnHarness } from "@/test/support/turn-harness";

let mock: LLMock;
describe.each(DATABASES)("on $name", (driver) => {
  turnHarness((m) => (mock = m), { driver });

  describe.each(["openai_chat", "openai_responses"] as const)("a turn over %s", (kind) => {
    it("streams the answer and stores it as blocks, with usage", async () => {
      mock.onMessage(`hello ${kind}`, { content: "Hi there! How can I help?", usage: { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 } });
      const { ctx, chat } = await teamWithProvider(mock.url, kind);
      const done = storedTurn();
      const res = await runTurn(ctx, { chatId: chat.id, text: `hello ${kind}` }, { onStored: done.onStored });
      expect(res.headers.get("content-type")).toContain("text/event-stream");
      const chunks = await readChunks(res);
      expect(textOf(chunks)).toBe("Hi there! How can I help?");
      const turn = await done.promise;
      expect(turn.status).toBe("done");
      const answer = await storedAnswer(chat.id);
      expect(answer.status).toBe("done");
      expect(answer.blocks.filter((b) => b.kind === "text").map((b) => b.text)).toEqual(["Hi there! How can I help?"]);
      expect(answer.inputTokens).toBe(11);
      expect(answer.outputTokens).toBe(7);
      const prisma = await db();
      const title = (await prisma.chat.findUniqueOrThrow({ where: { id: chat.id } })).title;
      expect(title).toBe(`hello ${kind}`);
      const usage = await prisma.usageRecord.findFirstOrThrow({ where: { messageId: answer.id } });
      expect(usage).toMatchObject({ inputTokens: 11, outputTokens: 7, teamId: ctx.team.id, userId: ctx.user.id });
      // The answer starts by naming the id its question is stored under (the page's copy takes it).
      const question = await prisma.message.findFirstOrThrow({ where: { chatId: chat.id, role: "user" } });
      expect(chunks.find((c) => c.type === "start")).toMatchObject({ messageMetadata: { questionId: question.id } });
    });

    it("turns an upstream 500 into a visible error block", async () => {
      const { ctx, chat } = await teamWithProvider(mock.url, kind);
      mock.onMessage(`boom ${kind}`, { error: { message: "upstream exploded", type: "server_error" }, status: 500 });
      const done = storedTurn();
      const chunks = await readChunks(await runTurn(ctx, { chatId: chat.id, text: `boom ${kind}` }, { onStored: done.onStored }));
      const errorPart = chunks.find((c) => c.type === "data-error") as { data: { code: string; message: string } } | undefined;
      expect(errorPart?.data.code).toBe("ProviderError");
      expect(errorPart?.data.message).toMatch(/HTTP 500/);
      expect((await done.promise).status).toBe("error");
      const answer = await storedAnswer(chat.id);
      expect(answer.status).toBe("error");
      expect(answer.blocks.find((b) => b.kind === "error")).toMatchObject({ errorCode: "ProviderError" });
    });
  });

  describe("turn endings", () => {
    it("stores reasoning and text from the Responses API", async () => {
      mock.onMessage("think first", { content: "The answer is 42.", reasoning: "Let me work it out step by step." });
      const { ctx, chat } = await teamWithProvider(mock.url, "openai_responses");
      const done = storedTurn();
      const chunks = await readChunks(await runTurn(ctx, { chatId: chat.id, text: "think first" }, { onStored: done.onStored }));
      expect(chunks.some((c) => c.type === "reasoning-delta")).toBe(true);
      await done.promise;
      const answer = await storedAnswer(chat.id);
      expect(answer.blocks.find((b) => b.kind === "reasoning")?.text).toBe("Let me work it out step by step.");
      expect(answer.blocks.find((b) => b.kind === "text")?.text).toBe("The answer is 42.");
    });

    it("an upstream that stops answering ends with a ProviderTimeout block", async () => {
      mock.onMessage("slow poke", { content: "too late" }, { streamingProfile: { ttft: 5000 } });
      const { ctx, chat } = await teamWithProvider(mock.url, "openai_chat");
      const done = storedTurn();
      const chunks = await readChunks(await runTurn(ctx, { chatId: chat.id, text: "slow poke" }, { onStored: done.onStored, idleTimeoutMs: 300 }));
      expect(chunks.find((c) => c.type === "data-error")).toMatchObject({ data: { code: "ProviderTimeout" } });
      expect((await done.promise).status).toBe("error");
      expect((await storedAnswer(chat.id)).blocks.find((b) => b.kind === "error")).toMatchObject({ errorCode: "ProviderTimeout" });
    });

    it("a malformed upstream stream ends with a visible error block", async () => {
      mock.addFixture({ match: { userMessage: "garbled" }, response: { content: "never seen" }, chaos: { malformedRate: 1 } });
      const { ctx, chat } = await teamWithProvider(mock.url, "openai_chat");
      const done = storedTurn();
      const chunks = await readChunks(await runTurn(ctx, { chatId: chat.id, text: "garbled" }, { onStored: done.onStored }));
      const err = chunks.find((c) => c.type === "data-error") as { data: { code: string } } | undefined;
      expect(err?.data.code).toBe("InvalidResponse");
      expect((await done.promise).status).toBe("error");
      expect((await storedAnswer(chat.id)).blocks.find((b) => b.kind === "error")).toMatchObject({ errorCode: "InvalidResponse" });
    });

    it("a closed browser does not stop the turn: the whole answer is stored", async () => {
      const long = Array.from({ length: 60 }, (_, i) => `word${i}`).join(" ");
      mock.onMessage("keep going", { content: long }, { latency: 10 });
      const { ctx, chat } = await teamWithProvider(mock.url, "openai_chat");
      const done = storedTurn();
      const res = await runTurn(ctx, { chatId: chat.id, text: "keep going" }, { onStored: done.onStored });
      const reader = res.body!.getReader();
      await reader.read();
      await reader.cancel(); // the tab is closed
      expect((await done.promise).status).toBe("done");
      expect((await storedAnswer(chat.id)).blocks.find((b) => b.kind === "text")?.text).toBe(long);
    });

    it("stop aborts on the server: the message is stopped and keeps what streamed", async () => {
      const long = Array.from({ length: 200 }, (_, i) => `w${i}`).join(" ");
      mock.onMessage("stop me", { content: long }, { latency: 20 });
      const { ctx, chat } = await teamWithProvider(mock.url, "openai_chat");
      const done = storedTurn();
      const res = await runTurn(ctx, { chatId: chat.id, text: "stop me" }, { onStored: done.onStored });
      const { stopTurn } = await import("./turn-follow");
      const reading = readChunks(res);
      await new Promise((r) => setTimeout(r, 400));
      expect(await stopTurn(ctx, chat.id)).toEqual({ stopped: true });
      const chunks = await reading;
      expect(chunks.find((c) => c.type === "data-notice")).toMatchObject({ data: { code: "Stopped" } });
      expect((await done.promise).status).toBe("stopped");
      const text = (await storedAnswer(chat.id)).blocks.find((b) => b.kind === "text")?.text ?? "";
      expect(text.length).toBeGreaterThan(0);
      expect(text.length).toBeLessThan(long.length);
      expect(long.startsWith(text)).toBe(true);
      // The chat is free again for the next message.
      mock.onMessage("after stop", { content: "ok" });
      const next = storedTurn();
      await readChunks(await runTurn(ctx, { chatId: chat.id, text: "after stop" }, { onStored: next.onStored }));
      expect((await next.promise).status).toBe("done");
    });

    it("a second turn while one runs is refused with 409 and writes nothing", async () => {
      mock.onMessage("long one", { content: "a b c d e f g h" }, { latency: 50 });
      const { ctx, chat } = await teamWithProvider(mock.url, "openai_chat");
      const done = storedTurn();
      const first = await runTurn(ctx, { chatId: chat.id, text: "long one" }, { onStored: done.onStored });
      const prisma = await db();
      const before = await prisma.message.count({ where: { chatId: chat.id } });
      await expect(runTurn(ctx, { chatId: chat.id, text: "interrupting" })).rejects.toMatchObject({ status: 409 });
      expect(await prisma.message.count({ where: { chatId: chat.id } })).toBe(before);
      await readChunks(first);
      await done.promise;
    });

    it("two turns sent at the same moment in one chat: one is answered, the other gets 409 and writes nothing", async () => {
      mock.onMessage("racing", { content: "only once" }, { latency: 20 });
      const { ctx, chat } = await teamWithProvider(mock.url, "openai_chat");
      const done = storedTurn();
      const send = () => runTurn(ctx, { chatId: chat.id, text: "racing" }, { onStored: done.onStored });
      const results = await Promise.allSettled([send(), send()]);
      const answered = results.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
      const refused = results.flatMap((r) => (r.status === "rejected" ? [r.reason] : []));
      expect(answered).toHaveLength(1);
      expect(refused).toEqual([expect.objectContaining({ status: 409 })]);
      expect(textOf(await readChunks(answered[0]))).toBe("only once");
      await done.promise;
      const prisma = await db();
      const rows = await prisma.message.findMany({ where: { chatId: chat.id }, orderBy: { seq: "asc" } });
      expect(rows.map((m) => [m.role, m.status])).toEqual([
        ["user", "done"],
        ["assistant", "done"],
      ]);
      expect((await prisma.chat.findUniqueOrThrow({ where: { id: chat.id } })).activeStreamId).toBeNull();
    });

    /** Runs `fn` with these environment variables set, restoring them after. */
    async function withEnv(vars: Record<string, string>, fn: () => Promise<void>) {
      const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
      Object.assign(process.env, vars);
      try {
        await fn();
      } finally {
        for (const [k, v] of Object.entries(saved)) {
          if (v === undefined) delete process.env[k];
          else process.env[k] = v;
        }
      }
    }

    /** Whether `p` settles within `ms` (a turn waiting in line does not). */
    const startsWithin = (p: Promise<unknown>, ms: number) =>
      Promise.race([
        p.then(
          () => true,
          () => true,
        ),
        new Promise<boolean>((r) => setTimeout(() => r(false), ms)),
      ]);

    it("past PARLEY_MAX_ACTIVE_TURNS new turns wait in line and start, in order, as running ones end", () =>
      withEnv({ PARLEY_MAX_ACTIVE_TURNS: "1", PARLEY_TURN_QUEUE_MS: "20000" }, async () => {
        const long = "word ".repeat(60).trim(); // 75 chunks of 4 characters, 20 ms apart: about 1.5 s
        mock.onMessage("first in line", { content: long }, { latency: 20 });
        mock.onMessage("second in line", { content: long }, { latency: 20 });
        mock.onMessage("third in line", { content: "Third." });
        const { ctx, chat } = await teamWithProvider(mock.url, "openai_chat");
        const prisma = await db();
        const newChat = () => prisma.chat.create({ data: { teamId: ctx.team.id, userId: ctx.user.id } });
        const [b, c] = [await newChat(), await newChat()];
        const doneA = storedTurn();
        const running = await runTurn(ctx, { chatId: chat.id, text: "first in line" }, { onStored: doneA.onStored });
        const second = runTurn(ctx, { chatId: b.id, text: "second in line" });
        const third = runTurn(ctx, { chatId: c.id, text: "third in line" });
        expect(await startsWithin(second, 300)).toBe(false);
        expect(await prisma.message.count({ where: { chatId: { in: [b.id, c.id] } } })).toBe(0);

        expect(textOf(await readChunks(running))).toBe(long);
        await doneA.promise;
        const secondRes = await second;
        expect(await startsWithin(third, 300)).toBe(false); // the third waits for the second
        expect(textOf(await readChunks(secondRes))).toBe(long);
        expect(textOf(await readChunks(await third))).toBe("Third.");
      }));

    /** A team with a second, empty chat, and a turn running in its first chat (the upstream paces it). */
    async function oneTurnRunning(prompt: string) {
      mock.onMessage(prompt, { content: "one two three four" }, { latency: 30 });
      const { ctx, chat } = await teamWithProvider(mock.url, "openai_chat");
      const other = await (await db()).chat.create({ data: { teamId: ctx.team.id, userId: ctx.user.id } });
      const done = storedTurn();
      const running = await runTurn(ctx, { chatId: chat.id, text: prompt }, { onStored: done.onStored });
      /** Reads the running turn to its end and waits until it is stored (its slot is free then). */
      const finish = async () => {
        await readChunks(running);
        await done.promise;
      };
      return { ctx, other, finish };
    }

    it("a turn that waited PARLEY_TURN_QUEUE_MS without a free slot gets 503 with Retry-After and writes nothing", () =>
      withEnv({ PARLEY_MAX_ACTIVE_TURNS: "1", PARLEY_TURN_QUEUE_MS: "50" }, async () => {
        mock.onMessage("let me in", { content: "Welcome." });
        const { ctx, other, finish } = await oneTurnRunning("hold the line");
        const refused = await runTurn(ctx, { chatId: other.id, text: "let me in" }).catch((err: unknown) => err);
        expect(refused).toMatchObject({ status: 503, code: "Busy" });
        const res = errorResponse(refused);
        expect(res.status).toBe(503);
        expect(res.headers.get("Retry-After")).toBe("5");
        expect((await res.json()).error.message).toMatch(/try again in a few seconds/i);
        expect(await (await db()).message.count({ where: { chatId: other.id } })).toBe(0);

        await finish();
        const later = storedTurn();
        expect(textOf(await readChunks(await runTurn(ctx, { chatId: other.id, text: "let me in" }, { onStored: later.onStored })))).toBe("Welcome.");
        await later.promise;
      }));

    it("at capacity a request is turned away before its work runs, and a request that fails gives its slot back", () =>
      withEnv({ PARLEY_MAX_ACTIVE_TURNS: "1", PARLEY_TURN_QUEUE_MS: "0" }, async () => {
        mock.onMessage("after a failure", { content: "Still here." });
        const { ctx, other, finish } = await oneTurnRunning("hold the slot");
        let signInRan = false;
        const signIn = async () => {
          signInRan = true;
          throw Unauthorized();
        };
        await expect(startTurn(signIn)).rejects.toMatchObject({ status: 503 });
        expect(signInRan).toBe(false);
        await finish();

        // The route's sign-in fails inside the slot: the slot is free again for the next turn.
        await expect(startTurn(signIn)).rejects.toMatchObject({ status: 401 });
        const turn = await startTurn(async () => ({ ctx, request: { chatId: other.id, text: "after a failure" } }));
        expect(textOf(await readChunks(turn.response))).toBe("Still here.");
        expect((await turn.stored).status).toBe("done");
      }));

    it("another user's chat is 404 and nothing is written", async () => {
      const a = await teamWithProvider(mock.url, "openai_chat");
      const b = await teamWithProvider(mock.url, "openai_chat");
      await expect(runTurn(b.ctx, { chatId: a.chat.id, text: "hi" })).rejects.toMatchObject({ status: 404 });
      expect(await (await db()).message.count({ where: { chatId: a.chat.id } })).toBe(0);
    });

    it("regenerate writes a new version of the last answer; the chat shows it", async () => {
      mock.onMessage("pick a colour", { content: "Blue." });
      const { ctx, chat } = await teamWithProvider(mock.url, "openai_chat");
      let done = storedTurn();
      await readChunks(await runTurn(ctx, { chatId: chat.id, text: "pick a colour" }, { onStored: done.onStored }));
      const first = await done.promise;
      done = storedTurn();
      await readChunks(await runTurn(ctx, { chatId: chat.id, regenerate: first.messageId }, { onStored: done.onStored }));
      const second = await done.promise;
      const prisma = await db();
      const branch = (await prisma.message.findMany({ where: { chatId: chat.id, onBranch: true }, orderBy: { seq: "asc" } })).map((m) => m.role);
      expect(branch).toEqual(["user", "assistant"]);
      expect(second.messageId).not.toBe(first.messageId);
      expect(await storedAnswer(chat.id)).toMatchObject({ id: second.messageId, onBranch: true });
      await expect(runTurn(ctx, { chatId: chat.id, regenerate: "not-an-answer" })).rejects.toMatchObject({ status: 404 });
    });
  });

  describe("multi-step turns", () => {
    it("a tool call runs, its result goes back to the model, and every step is stored in order", async () => {
      mock.addFixture({
        match: { userMessage: "what is 2+3", hasToolResult: false },
        response: { toolCalls: [{ name: "add", arguments: JSON.stringify({ a: 2, b: 3 }), id: "call_add_1" }] },
      });
      mock.addFixture({ match: { userMessage: "what is 2+3", hasToolResult: true }, response: { content: "2 + 3 = 5." } });
      const { calls, add } = adderTool();
      const { ctx, chat } = await teamWithProvider(mock.url, "openai_chat");
      const done = storedTurn();
      const chunks = await readChunks(await runTurn(ctx, { chatId: chat.id, text: "what is 2+3" }, { onStored: done.onStored, tools: { add } }));
      expect(calls).toEqual([{ a: 2, b: 3 }]);
      expect(textOf(chunks)).toBe("2 + 3 = 5.");
      await done.promise;
      const blocks = (await storedAnswer(chat.id)).blocks;
      expect(blocks.map((b) => b.kind)).toEqual(["step", "tool", "step", "text"]);
      expect(blocks[1]).toMatchObject({ toolName: "add", toolCallId: "call_add_1", status: "output-available", input: { a: 2, b: 3 }, output: { sum: 5 } });
      expect(blocks[1].startedAt).toBeInstanceOf(Date);
      expect(blocks[1].finishedAt).toBeInstanceOf(Date);
      // The upstream saw the tool result in the second request.
      const second = mock
        .getRequests()
        .filter((r) => JSON.stringify(r.body).includes("what is 2+3"))
        .at(-1);
      expect(JSON.stringify(second?.body)).toContain('\\"sum\\":5');
    });
  });
});
