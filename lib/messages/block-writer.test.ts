// The block writer on a real database (PGlite, and PostgreSQL when TEST_DATABASE_URL is set): a block is written as soon as it starts and when it changes
// status; growing text is written at most once per throttle window; the end is always written whole.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../db/client";
import { DATABASES, makeUser, startTestApp } from "../../test/support/test-app";
import { createBlockWriter } from "./block-writer";
import type { ParleyPart } from "./message-types";

async function newMessage() {
  const prisma = await db();
  const user = await makeUser();
  const team = await prisma.team.create({ data: { name: "T" } });
  const chat = await prisma.chat.create({ data: { teamId: team.id, userId: user.id } });
  return prisma.message.create({ data: { id: `m-${Math.random()}`, chatId: chat.id, role: "assistant", status: "streaming" } });
}

const text = (t: string, state: "streaming" | "done" = "streaming"): ParleyPart => ({ type: "text", text: t, state });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function blocks(messageId: string) {
  return (await db()).block.findMany({ where: { messageId }, orderBy: { ordinal: "asc" } });
}

describe.each(DATABASES)("block writer on $name", (driver) => {
  let stop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    ({ stop } = await startTestApp(driver));
  });
  afterAll(() => stop?.());

  it("writes a new block at once, without waiting for the throttle window", async () => {
    const message = await newMessage();
    const writer = createBlockWriter(await db(), message.id, { throttleMs: 10_000 });
    writer.update([{ type: "step-start" }, text("Hel")]);
    for (let i = 0; i < 200 && (await blocks(message.id)).length < 2; i++) await sleep(10);
    const rows = await blocks(message.id);
    expect(rows.map((b) => [b.kind, b.text])).toEqual([
      ["step", null],
      ["text", "Hel"],
    ]);
    await writer.flush();
  });

  it("writes growing text at most once per window, and the final text on flush", async () => {
    const message = await newMessage();
    const writer = createBlockWriter(await db(), message.id, { throttleMs: 150 });
    let t = "";
    const started = Date.now();
    for (let i = 0; i < 60; i++) {
      t += `w${i} `;
      writer.update([text(t)]);
      await sleep(10);
    }
    const elapsed = Date.now() - started;
    writer.update([text(t, "done")]);
    await writer.flush();
    // One insert, at most one update per started window, one for the status change.
    expect(writer.stats.writes).toBeLessThanOrEqual(1 + Math.ceil(elapsed / 150) + 1);
    expect(writer.stats.writes).toBeGreaterThanOrEqual(3);
    const [row] = await blocks(message.id);
    expect(row).toMatchObject({ kind: "text", text: t, status: "done" });
  });

  it("while text streams, the stored text is never older than one window", async () => {
    const message = await newMessage();
    const writer = createBlockWriter(await db(), message.id, { throttleMs: 100 });
    let t = "";
    const history: { at: number; length: number }[] = [];
    for (let i = 0; i < 40; i++) {
      t += "abcde";
      writer.update([text(t)]);
      history.push({ at: Date.now(), length: t.length });
      await sleep(10);
    }
    await sleep(20);
    const storedLength = (await blocks(message.id))[0].text!.length;
    // Everything produced at least a window (plus generous time for a write) before now is stored.
    const due = history.filter((h) => h.at <= Date.now() - 100 - 250).at(-1)?.length ?? 0;
    expect(storedLength).toBeGreaterThanOrEqual(due);
    await writer.flush();
  });

  it("a growing text block whose other fields change (provider metadata) stores them with its text", async () => {
    const message = await newMessage();
    const writer = createBlockWriter(await db(), message.id, { throttleMs: 0 });
    const stored = () => blocks(message.id).then((rows) => rows[0]);
    writer.update([text("One")]);
    await writer.flush();
    writer.update([text("One two")]);
    await writer.flush();
    expect(await stored()).toMatchObject({ text: "One two", providerMetadata: null });
    // The text grows and the provider's metadata arrives at once: both are written.
    const withMeta = (t: string, state: "streaming" | "done" = "streaming"): ParleyPart => ({
      type: "text",
      text: t,
      state,
      providerMetadata: { openai: { itemId: "msg_1" } },
    });
    writer.update([withMeta("One two three")]);
    await writer.flush();
    expect(await stored()).toMatchObject({ text: "One two three", providerMetadata: { openai: { itemId: "msg_1" } } });
    // Then only the text grows again, and at the end the state changes.
    writer.update([withMeta("One two three four")]);
    await writer.flush();
    writer.update([withMeta("One two three four.", "done")]);
    await writer.flush();
    expect(await stored()).toMatchObject({ text: "One two three four.", status: "done", providerMetadata: { openai: { itemId: "msg_1" } } });
  });

  it("a tool block is written immediately on every status change", async () => {
    const message = await newMessage();
    const writer = createBlockWriter(await db(), message.id, { throttleMs: 10_000 });
    const states: ParleyPart[] = [
      { type: "tool-echo", toolCallId: "c1", state: "input-streaming", input: undefined },
      { type: "tool-echo", toolCallId: "c1", state: "input-available", input: { text: "hi" } },
      { type: "tool-echo", toolCallId: "c1", state: "output-available", input: { text: "hi" }, output: { text: "hi" } },
    ];
    const seen: string[] = [];
    for (const part of states) {
      writer.update([part]);
      for (let i = 0; i < 200; i++) {
        const row = (await blocks(message.id))[0];
        if (row?.status === (part as { state: string }).state) break;
        await sleep(10);
      }
      seen.push((await blocks(message.id))[0].status);
    }
    expect(seen).toEqual(["input-streaming", "input-available", "output-available"]);
    const [row] = await blocks(message.id);
    expect(row.finishedAt).toBeInstanceOf(Date);
    await writer.flush();
  });
});
