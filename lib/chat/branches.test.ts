// Branches on a real database and a scripted model: regenerating any answer and editing a question
// write new versions beside the old ones; the model reads the chosen branch from the database; the
// version switcher brings an old branch back (also after a reload); older pages follow the branch;
// Continue after Stop goes on with the stopped answer; waiting calls of a branch left behind can no
// longer run; and every one of these refuses another member's chat, forged ids and a running turn.
import type { LLMock } from "@copilotkit/aimock";
import { tool, type ToolSet } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { db } from "../db/client";
import { recordDecisions } from "../approvals/approvals";
import { CONTINUE_ANSWER, loadMessagePage } from "./history";
import { chatRequestSchema } from "../turn/request";
import { switchVersion } from "../turn/switch-version";
import { stopTurn } from "../turn/turn-follow";
import { readChunks, readUntil, teamWithProvider, textOf } from "@/test/support/test-turns";
import { DATABASES, runTurn, storedTurn, turnHarness } from "@/test/support/turn-harness";
import type { TeamContext } from "../teams/team-context";
import type { TurnRequest } from "../turn/turn";

let mock: LLMock;
describe.each(DATABASES)("on $name", (driver) => {
  turnHarness((m) => (mock = m), { driver });

  /** Runs a turn to its stored end; the stored turn and the text the browser got. */
  async function turn(ctx: TeamContext, request: TurnRequest, tools?: ToolSet) {
    const done = storedTurn();
    const chunks = await readChunks(await runTurn(ctx, request, { onStored: done.onStored, tools }));
    return { ...(await done.promise), text: textOf(chunks), chunks };
  }

  /** The branch as the page shows it: role, text and versions of each message. */
  async function branch(chatId: string) {
    const page = await loadMessagePage(chatId);
    return page.messages.map((m) => ({
      role: m.role,
      text: m.parts.flatMap((p) => (p.type === "text" ? [p.text] : [])).join(""),
      versions: m.metadata?.versions ? `${m.metadata.versions.index} / ${m.metadata.versions.count}` : undefined,
      id: m.id,
    }));
  }

  /** The user and assistant texts of the model request that asked `marker`, in order. */
  function modelSaw(marker: string): string[] {
    const req = mock
      .getRequests()
      .filter((r) => JSON.stringify(r.body).includes(marker))
      .at(-1);
    const messages = (req?.body as { messages: { role: string; content: unknown }[] }).messages;
    return messages.filter((m) => m.role !== "system").map((m) => `${m.role}: ${typeof m.content === "string" ? m.content : JSON.stringify(m.content)}`);
  }

  /** A chat of two exchanges: Q1 -> A1, Q2 -> A2 (each prompt unique to the test). */
  async function twoExchanges(tag: string) {
    // The first question is answered anew when asked again (a regenerate).
    mock.addFixture({ match: { userMessage: `${tag} first`, sequenceIndex: 0 }, response: { content: `${tag} answer one` } });
    mock.onMessage(`${tag} first`, { content: `${tag} answer one, again` });
    mock.onMessage(`${tag} second`, { content: `${tag} answer two` });
    const setup = await teamWithProvider(mock.url, "openai_chat");
    await turn(setup.ctx, { chatId: setup.chat.id, text: `${tag} first` });
    await turn(setup.ctx, { chatId: setup.chat.id, text: `${tag} second` });
    return { ...setup, ids: (await branch(setup.chat.id)).map((m) => m.id) };
  }

  it("regenerating an earlier answer writes a second version; the model reads only what came before it; the old branch comes back", async () => {
    const { ctx, chat, ids } = await twoExchanges("regen");
    const again = await turn(ctx, { chatId: chat.id, regenerate: ids[1] });
    expect(again.text).toBe("regen answer one, again");
    // The model read the first question only: nothing of the branch below the old answer.
    expect(modelSaw("regen first")).toEqual(["user: regen first"]);
    expect(await branch(chat.id)).toMatchObject([
      { role: "user", text: "regen first" },
      { role: "assistant", text: "regen answer one, again", versions: "2 / 2" },
    ]);
    // The previous version, with what followed it, is one switch away, and stays after a reload.
    const shown = await switchVersion(ctx, chat.id, { messageId: again.messageId, direction: "previous" });
    expect(shown.versionId).toBe(ids[1]);
    const old = await branch(chat.id);
    expect(old.map((m) => m.text)).toEqual(["regen first", "regen answer one", "regen second", "regen answer two"]);
    expect(old[1].versions).toBe("1 / 2");
    expect(shown.messages.map((m) => m.id)).toEqual(old.map((m) => m.id));
    // A new message follows the branch shown: the model reads it, not the other version.
    mock.onMessage("regen third", { content: "regen answer three" });
    await turn(ctx, { chatId: chat.id, text: "regen third" });
    expect(modelSaw("regen third")).toEqual([
      "user: regen first",
      "assistant: regen answer one",
      "user: regen second",
      "assistant: regen answer two",
      "user: regen third",
    ]);
    await switchVersion(ctx, chat.id, { messageId: ids[1], direction: "next" });
    expect((await branch(chat.id)).map((m) => m.text)).toEqual(["regen first", "regen answer one, again"]);
  });

  it("editing a question branches: the new version is answered from the history before it, the old one stays reachable", async () => {
    const { ctx, chat, ids } = await twoExchanges("edit");
    mock.onMessage("edit reworded second", { content: "edit answer to the rewording" });
    const edited = await turn(ctx, { chatId: chat.id, edit: ids[2], text: "edit reworded second" });
    expect(edited.text).toBe("edit answer to the rewording");
    expect(modelSaw("edit reworded second")).toEqual(["user: edit first", "assistant: edit answer one", "user: edit reworded second"]);
    const now = await branch(chat.id);
    expect(now).toMatchObject([
      { text: "edit first" },
      { text: "edit answer one" },
      { text: "edit reworded second", versions: "2 / 2" },
      { text: "edit answer to the rewording", versions: undefined },
    ]);
    await switchVersion(ctx, chat.id, { messageId: now[2].id, direction: "previous" });
    expect((await branch(chat.id)).map((m) => m.id)).toEqual(ids);
    // The chat's first question can be edited too: its versions have no parent.
    mock.onMessage("edit reworded first", { content: "edit answer to the first rewording" });
    await turn(ctx, { chatId: chat.id, edit: ids[0], text: "edit reworded first" });
    expect(modelSaw("edit reworded first")).toEqual(["user: edit reworded first"]);
    expect(await branch(chat.id)).toMatchObject([{ text: "edit reworded first", versions: "2 / 2" }, { text: "edit answer to the first rewording" }]);
  });

  it("older pages follow the branch", async () => {
    const { ctx, chat, ids } = await twoExchanges("pages");
    const again = await turn(ctx, { chatId: chat.id, regenerate: ids[1] });
    mock.onMessage("pages more", { content: "pages more answered" });
    for (let i = 0; i < 3; i++) await turn(ctx, { chatId: chat.id, text: `pages more ${i}` });
    const newest = await loadMessagePage(chat.id, { limit: 4 });
    expect(newest.hasMore).toBe(true);
    const older = await loadMessagePage(chat.id, { limit: 4, beforeSeq: newest.firstSeq });
    expect(older.messages.map((m) => m.id).slice(0, 2)).toEqual([ids[0], again.messageId]);
    expect([...older.messages, ...newest.messages].map((m) => m.id)).not.toContain(ids[1]);
    expect(older.hasMore).toBe(false);
  });

  it("Continue after Stop goes on with the stopped answer, in the same message", async () => {
    const long = Array.from({ length: 200 }, (_, i) => `w${i}`).join(" ");
    mock.onMessage("continue me", { content: long }, { latency: 20 });
    mock.onMessage(CONTINUE_ANSWER, { content: "and the rest." });
    const { ctx, chat } = await teamWithProvider(mock.url, "openai_chat");
    const done = storedTurn();
    const res = await runTurn(ctx, { chatId: chat.id, text: "continue me" }, { onStored: done.onStored });
    const { rest } = await readUntil(res, (chunks) => textOf(chunks).length > 20);
    await stopTurn(ctx, chat.id);
    await rest;
    const stopped = await done.promise;
    expect(stopped.status).toBe("stopped");
    const partial = (await branch(chat.id))[1].text;
    const more = await turn(ctx, { chatId: chat.id, continue: stopped.messageId });
    expect(more.messageId).toBe(stopped.messageId);
    expect(more.status).toBe("done");
    expect(more.text).toBe("and the rest.");
    // The model read the answer so far, then the request to go on.
    expect(modelSaw(CONTINUE_ANSWER).slice(-2)).toEqual([`assistant: ${partial}`, `user: ${CONTINUE_ANSWER}`]);
    const [, answer] = await branch(chat.id);
    expect(answer.text).toBe(`${partial}and the rest.`);
    const blocks = await (await db()).block.findMany({ where: { messageId: stopped.messageId, kind: "data" } });
    expect(blocks.filter((b) => (b.data as { code?: string }).code === "Stopped")).toEqual([]);
    // A finished answer cannot be continued.
    await expect(runTurn(ctx, { chatId: chat.id, continue: stopped.messageId })).rejects.toMatchObject({ status: 409 });
  });

  it("a call waiting on a branch left behind ends as superseded and can no longer be approved", async () => {
    const runs: unknown[] = [];
    const tools = {
      wipe: tool({
        description: "Wipes a disk",
        inputSchema: z.object({ disk: z.string() }),
        needsApproval: true,
        execute: async (input) => (runs.push(input), { wiped: true }),
      }),
    };
    mock.addFixture({
      match: { userMessage: "wipe the disk", sequenceIndex: 0 },
      response: { toolCalls: [{ name: "wipe", arguments: JSON.stringify({ disk: "d1" }), id: "call_wipe" }] },
    });
    const { ctx, chat } = await teamWithProvider(mock.url, "openai_chat");
    const asked = await turn(ctx, { chatId: chat.id, text: "wipe the disk" }, tools);
    const approvalId = (asked.chunks.find((c) => c.type === "tool-approval-request") as unknown as { approvalId: string }).approvalId;
    mock.addFixture({ match: { userMessage: "wipe the disk", sequenceIndex: 1 }, response: { content: "I will not wipe anything." } });
    const other = await turn(ctx, { chatId: chat.id, regenerate: asked.messageId }, tools);
    await switchVersion(ctx, chat.id, { messageId: other.messageId, direction: "previous" });
    await expect(recordDecisions(ctx, chat.id, [{ approvalId, approved: true }])).rejects.toMatchObject({ status: 409 });
    await expect(runTurn(ctx, { chatId: chat.id, decisions: [{ approvalId, approved: true }] }, { tools })).rejects.toMatchObject({ status: 409 });
    const block = await (await db()).block.findFirstOrThrow({ where: { approvalId } });
    expect(block).toMatchObject({ status: "output-denied", approved: false });
    expect(runs).toEqual([]);
  });

  it("refuses another member's chat, forged ids, messages of another chat or branch, and a running turn; nothing is written", async () => {
    const { ctx, chat, ids } = await twoExchanges("guard");
    const stranger = await teamWithProvider(mock.url, "openai_chat");
    const prisma = await db();
    const count = () => prisma.message.count({ where: { chatId: chat.id } });
    const before = await count();
    // Another team's member, on this chat.
    for (const request of [{ regenerate: ids[1] }, { edit: ids[0], text: "x" }, { continue: ids[3] }]) {
      await expect(runTurn(stranger.ctx, { chatId: chat.id, ...request })).rejects.toMatchObject({ status: 404 });
    }
    await expect(switchVersion(stranger.ctx, chat.id, { messageId: ids[1], direction: "previous" })).rejects.toMatchObject({ status: 404 });
    // Forged ids, a question given as an answer, a message of another chat.
    await turn(stranger.ctx, { chatId: stranger.chat.id, text: "guard first" });
    const foreign = (await branch(stranger.chat.id))[1].id;
    for (const request of [
      { regenerate: "forged" },
      { regenerate: ids[0] },
      { regenerate: foreign },
      { edit: ids[1], text: "x" },
      { edit: "forged", text: "x" },
      { continue: "forged" },
    ]) {
      await expect(runTurn(ctx, { chatId: chat.id, ...request })).rejects.toMatchObject({ status: 404 });
    }
    await expect(switchVersion(ctx, chat.id, { messageId: foreign, direction: "next" })).rejects.toMatchObject({ status: 404 });
    await expect(switchVersion(ctx, chat.id, { messageId: ids[1], direction: "next" })).rejects.toMatchObject({ status: 400 });
    // A finished answer is not continued.
    await expect(runTurn(ctx, { chatId: chat.id, continue: ids[3] })).rejects.toMatchObject({ status: 409 });
    // A message of a branch left behind is not regenerated.
    await turn(ctx, { chatId: chat.id, regenerate: ids[1] });
    await expect(runTurn(ctx, { chatId: chat.id, regenerate: ids[3] })).rejects.toMatchObject({ status: 404 });
    expect(await count()).toBe(before + 1);
    // While a turn runs, no new version and no switch.
    mock.onMessage("guard slow", { content: Array.from({ length: 100 }, (_, i) => `s${i}`).join(" ") }, { latency: 20 });
    const done = storedTurn();
    const res = await runTurn(ctx, { chatId: chat.id, text: "guard slow" }, { onStored: done.onStored });
    const reading = readChunks(res);
    await expect(runTurn(ctx, { chatId: chat.id, regenerate: ids[1] })).rejects.toMatchObject({ status: 409 });
    await expect(switchVersion(ctx, chat.id, { messageId: ids[1], direction: "previous" })).rejects.toMatchObject({ status: 409 });
    await reading;
    await done.promise;
  });

  it("the request body names one thing to do", () => {
    const ok = (body: object) => chatRequestSchema.safeParse({ id: "c", ...body }).success;
    const message = { role: "user", parts: [{ type: "text", text: "hi" }] };
    expect(ok({ message, editOf: "q" })).toBe(true);
    expect(ok({ continueOf: "a" })).toBe(true);
    expect(ok({ trigger: "regenerate-message", messageId: "a" })).toBe(true);
    expect(ok({ editOf: "q" })).toBe(false);
    expect(ok({ message, continueOf: "a" })).toBe(false);
    expect(ok({ trigger: "regenerate-message", messageId: "a", continueOf: "a" })).toBe(false);
    expect(ok({ continueOf: "" })).toBe(false);
  });
});
