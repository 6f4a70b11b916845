// The shipping definition of done, lived on PostgreSQL: "a backup taken while chatting restores into a
// new instance with every chat intact". A team chats through the app's own turn path (an admin's
// finished question and streamed answer; a member's tool call, approved, run and answered; the member's
// answer still streaming from a slow model), `npm run backup` runs as an operator runs it while that
// answer streams, the answer then finishes on the original, and `npm run restore` puts the backup into
// a new, empty database. A new instance opened on it reads every chat back through the app's readers:
// the finished chats as they were, the streaming answer with the text stored up to the snapshot and
// marked interrupted by the new instance's recovery, and the restored key opens the provider key the
// original sealed (a new question in that chat reaches the model with it).
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import type { LLMock } from "@copilotkit/aimock";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, openDatabase } from "../lib/db/client";
import { createChat } from "../lib/chat/chats";
import { listChatPage } from "../lib/chat/chat-list";
import { loadMessagePage } from "../lib/chat/history";
import { createProvider } from "../lib/providers/admin";
import { saveModel } from "../lib/providers/models";
import { modelFormSchema, providerFormSchema } from "../lib/providers/schemas";
import { decryptSecret } from "../lib/security/keyring";
import { ready, shutdown } from "../lib/startup";
import type { TeamContext } from "../lib/teams/team-context";
import { startTestApp, teamMember } from "../test/support/test-app";
import { DRIVERS, makeTempDir, removeDir, TEST_DATABASE_URL, type TestDatabase } from "../test/support/test-databases";
import { readChunks, startUpstream, teamWithProvider, textOf } from "../test/support/test-turns";
import { startScripted } from "../test/support/test-upstreams";
import { adderTool, runTurn, storedTurn } from "../test/support/turn-harness";

const KEY = "Jc0nV7pXq2Lr9sTb4WmZ8yHd1Ke6Gf3Au5No0Ri7Ej2";
/** The key the team's default provider (teamWithProvider) is stored with, and the slow provider's. */
const DEFAULT_PROVIDER_KEY = "sk-test-1234567890";
const SLOW_PROVIDER_KEY = "sk-slow-backup-journey-4242";
const SLOW_QUESTION = "Tell me everything about backups, slowly.";
const SLOW_ENDING = " That is all about backups.";
const FOLLOW_UP = "Are you still there after the restore?";
const FOLLOW_UP_ANSWER = "Yes, restored and answering.";

const hasPgTools = ["pg_dump", "pg_restore"].every((tool) => spawnSync(tool, ["--version"]).status === 0);
const skipReason = !TEST_DATABASE_URL
  ? "skipped: needs TEST_DATABASE_URL (a PostgreSQL server to make databases on)"
  : !hasPgTools
    ? "skipped: needs pg_dump and pg_restore on PATH"
    : undefined;

const scriptsDir = path.dirname(fileURLToPath(import.meta.url));

/** Runs `npm run backup` / `npm run restore` as an operator does, without blocking this process (its turns go on streaming). */
function run(script: "backup" | "restore", args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const base = { ...process.env };
  for (const k of ["DATABASE_URL", "PARLEY_DATA_DIR", "PARLEY_SECRET_KEY", "PARLEY_HEARTBEAT_MS"]) delete base[k];
  const child = spawn(process.execPath, [path.join(scriptsDir, `${script}.mjs`), ...args], { env: { ...base, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const timer = setTimeout(() => child.kill("SIGKILL"), 90_000);
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Polls `probe` until it returns something truthy (a condition, not a fixed wait); fails naming `what` after `ms`. */
async function until<T>(what: string, probe: () => Promise<T | undefined | null | false>, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(20);
  }
}

/** The text of a UI message's text parts, joined. */
const textOfMessage = (m: { parts: { type: string; text?: string }[] }) =>
  m.parts
    .filter((p) => p.type === "text")
    .map((p) => p.text)
    .join("");

/** A chat list as a person sees it, without the times (the streaming chat's moved on the original after the backup). */
async function chatTitles(ctx: TeamContext) {
  const page = await listChatPage(ctx);
  return page.chats.map((c) => ({ id: c.id, title: c.title })).sort((a, b) => a.id.localeCompare(b.id));
}

/**
 * An OpenAI chat-completions upstream that streams a word every 10 ms for as long as the test lets it
 * (the answer that is still streaming when the backup is taken), then ends it; a question after the
 * restore gets a short answer.
 */
function slowUpstream() {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let open = true;
  void released.then(() => (open = false));
  const server = startScripted(async (req, res) => {
    const frame = (body: object) =>
      res.write(`data: ${JSON.stringify({ id: "chatcmpl-slow", object: "chat.completion.chunk", created: 1, model: "slow-model", ...body })}\n\n`);
    const delta = (content: string) => frame({ choices: [{ index: 0, delta: { content }, finish_reason: null }] });
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    frame({ choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }] });
    if (req.body.includes(FOLLOW_UP)) {
      delta(FOLLOW_UP_ANSWER);
    } else {
      for (let i = 0; open && !res.destroyed; i++) {
        delta(`${i ? " " : ""}w${i}`);
        await sleep(10); // the model's pace
      }
      delta(SLOW_ENDING);
    }
    frame({ choices: [{ index: 0, delta: {}, finish_reason: "stop" }] });
    frame({ choices: [], usage: { prompt_tokens: 9, completion_tokens: 42, total_tokens: 51 } });
    res.end("data: [DONE]\n\n");
  });
  return { server, release };
}

describe.skipIf(skipReason !== undefined)(`a backup taken while people chat restores into a new instance${skipReason ? ` (${skipReason})` : ""}`, () => {
  const postgres = DRIVERS[1];
  const saved = { key: process.env.PARLEY_SECRET_KEY, heartbeat: process.env.PARLEY_HEARTBEAT_MS };
  const cleanups: (() => Promise<unknown> | unknown)[] = [];
  let original: { test: TestDatabase; stop(): Promise<void> };
  let mock: LLMock;
  let slow: ReturnType<typeof slowUpstream>;
  let slowServer: Awaited<ReturnType<typeof slowUpstream>["server"]>;

  beforeAll(async () => {
    // The original instance: PostgreSQL, its key given as PARLEY_SECRET_KEY (as a cluster's instances share it).
    process.env.PARLEY_SECRET_KEY = KEY;
    delete process.env.PARLEY_HEARTBEAT_MS;
    original = await startTestApp(postgres);
    cleanups.push(() => original.stop());
    mock = await startUpstream();
    cleanups.push(() => mock.stop());
    slow = slowUpstream();
    slowServer = await slow.server;
    cleanups.push(
      () => slowServer.stop(),
      () => slow.release(),
    );
  }, 180_000);

  afterAll(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
    for (const [name, value] of [
      ["PARLEY_SECRET_KEY", saved.key],
      ["PARLEY_HEARTBEAT_MS", saved.heartbeat],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it("every finished chat is whole, the streaming answer keeps its text up to the snapshot and is recovered as interrupted, the key still opens the provider key", async () => {
    // --- A team chats on the original instance. ---
    const { ctx: admin, chat: greeting } = await teamWithProvider(mock.url, "openai_chat");
    const member = await teamMember(admin.team.id, "Mo");
    const slowProvider = await createProvider(
      admin,
      providerFormSchema.parse({ name: "Slow", kind: "openai_chat", baseUrl: `${slowServer.url}/v1`, apiKey: SLOW_PROVIDER_KEY, enabled: "on" }),
    );
    const slowModel = await saveModel(admin, slowProvider.id, undefined, modelFormSchema.parse({ modelId: "slow-model", enabled: "on" }));

    // 1. The admin's question and its streamed answer.
    const greetingAnswer = "Hello! Every chat here is kept, backups included.";
    mock.onMessage("hello parley", { content: greetingAnswer }, { latency: 30 }); // 4 characters every 30 ms
    const greeted = storedTurn();
    const greetingChunks = await readChunks(await runTurn(admin, { chatId: greeting.id, text: "hello parley" }, { onStored: greeted.onStored }));
    expect(greetingChunks.filter((c) => c.type === "text-delta").length).toBeGreaterThan(1); // streamed, not in one piece
    expect(textOf(greetingChunks)).toBe(greetingAnswer);
    expect((await greeted.promise).status).toBe("done");

    // 2. The member's tool call: asked, approved by the member, run, and answered.
    const adder = adderTool({ needsApproval: true });
    mock.addFixture({
      match: { userMessage: "what is 2 + 3?", hasToolResult: false },
      response: { toolCalls: [{ name: "add", arguments: JSON.stringify({ a: 2, b: 3 }), id: "call_add_journey" }] },
    });
    mock.addFixture({ match: { userMessage: "what is 2 + 3?", hasToolResult: true }, response: { content: "2 + 3 = 5." } });
    const sums = await createChat(member);
    const asked = storedTurn();
    const askChunks = await readChunks(
      await runTurn(member, { chatId: sums.id, text: "what is 2 + 3?" }, { tools: { add: adder.add }, onStored: asked.onStored }),
    );
    await asked.promise;
    const approvalId = askChunks.find((c) => c.type === "tool-approval-request")?.approvalId as string | undefined;
    expect(approvalId).toBeTruthy();
    const decided = storedTurn();
    const decidedChunks = await readChunks(
      await runTurn(
        member,
        { chatId: sums.id, decisions: [{ approvalId: approvalId!, approved: true }] },
        { tools: { add: adder.add }, onStored: decided.onStored },
      ),
    );
    expect(textOf(decidedChunks)).toBe("2 + 3 = 5.");
    expect((await decided.promise).status).toBe("done");
    expect(adder.calls).toEqual([{ a: 2, b: 3 }]);

    // 3. The member's answer from the slow model, still streaming while the backup is taken.
    const slowChat = await createChat(member);
    const streamed = storedTurn();
    const slowResponse = await runTurn(member, { chatId: slowChat.id, text: SLOW_QUESTION, modelId: slowModel.id }, { onStored: streamed.onStored });
    const watching = readChunks(slowResponse); // the member's tab, open throughout
    const prisma = await db();
    const storedSoFar = async () => {
      const answer = await prisma.message.findFirst({ where: { chatId: slowChat.id, role: "assistant" }, include: { blocks: true } });
      return { id: answer?.id, status: answer?.status, text: answer?.blocks.find((b) => b.kind === "text")?.text ?? "" };
    };
    const beforeBackup = await until("the streaming answer's first stored text", async () => {
      const s = await storedSoFar();
      return s.text.length > 0 && s;
    });
    expect(beforeBackup.status).toBe("streaming");

    // --- npm run backup, as an operator runs it, while the answer streams. ---
    const backupDir = path.join(makeTempDir("parley-journey-"), "backup");
    cleanups.push(() => removeDir(path.dirname(backupDir)));
    const backup = await run("backup", ["--out", backupDir], { DATABASE_URL: original.test.url!, PARLEY_SECRET_KEY: KEY });
    expect(backup.code, backup.stderr).toBe(0);
    expect(JSON.parse(fs.readFileSync(path.join(backupDir, "manifest.json"), "utf8"))).toMatchObject({ database: "postgresql" });
    // The answer was streaming before, during and after the backup: it still is, and it goes on growing
    // (a quick backup can end between two of the turn's stored flushes, so the growth is waited for).
    expect((await storedSoFar()).status).toBe("streaming");
    const afterBackup = await until("the streaming answer to grow after the backup", async () => {
      const s = await storedSoFar();
      return s.text.length > beforeBackup.text.length && s;
    });
    expect(afterBackup.status).toBe("streaming");

    // The answer finishes on the original.
    slow.release();
    const finalChunks = await watching;
    expect((await streamed.promise).status).toBe("done");

    // What the original's people see now, through the app's readers.
    const originalPages = {
      greeting: await loadMessagePage(greeting.id),
      sums: await loadMessagePage(sums.id),
      slow: await loadMessagePage(slowChat.id),
    };
    const originalLists = { admin: await chatTitles(admin), member: await chatTitles(member) };
    const finalText = textOfMessage(originalPages.slow.messages[1]);
    expect(finalText).toBe(textOf(finalChunks));
    expect(finalText.endsWith(SLOW_ENDING)).toBe(true);
    expect(finalText.startsWith(afterBackup.text)).toBe(true);

    // --- npm run restore into a new, empty database (the key goes to the new data directory's key file). ---
    const target = await postgres.fresh();
    cleanups.push(() => target.cleanup());
    const restoredDir = makeTempDir("parley-restored-");
    cleanups.push(() => removeDir(restoredDir));
    const restore = await run("restore", [backupDir], { DATABASE_URL: target.url!, PARLEY_DATA_DIR: restoredDir });
    expect(restore.code, restore.stderr).toBe(0);

    // The restored copy holds the answer as the snapshot caught it: still `streaming`, with the text stored by then.
    const restoredRaw = await openDatabase({ url: target.url! });
    let snapshotText: string;
    try {
      const answer = await restoredRaw.prisma.message.findUniqueOrThrow({ where: { id: beforeBackup.id }, include: { blocks: true } });
      expect(answer.status).toBe("streaming");
      snapshotText = answer.blocks.find((b) => b.kind === "text")?.text ?? "";
    } finally {
      await restoredRaw.close();
    }
    expect(snapshotText.startsWith(beforeBackup.text)).toBe(true); // at least what was stored when the backup began
    expect(afterBackup.text.startsWith(snapshotText)).toBe(true); // at most what was stored when it ended
    expect(snapshotText.length).toBeLessThan(finalText.length);

    // --- A new instance on the restored database: its own data directory and key file, a short heartbeat. ---
    await shutdown(); // the original instance stops serving this process (its database stays, dropped at the end)
    process.env.DATABASE_URL = target.url!;
    process.env.PARLEY_DATA_DIR = restoredDir;
    delete process.env.PARLEY_SECRET_KEY;
    process.env.PARLEY_HEARTBEAT_MS = "200";
    await ready();
    cleanups.push(() => shutdown());

    // The finished chats are whole: every message, every block, the tool call's state, input and output.
    expect(await loadMessagePage(greeting.id)).toEqual(originalPages.greeting);
    expect(await loadMessagePage(sums.id)).toEqual(originalPages.sums);
    const greetingPage = await loadMessagePage(greeting.id);
    expect(greetingPage.messages.map((m) => [m.role, m.metadata?.status, textOfMessage(m)])).toEqual([
      ["user", "done", "hello parley"],
      ["assistant", "done", greetingAnswer],
    ]);
    const sumsPage = await loadMessagePage(sums.id);
    expect(sumsPage.messages.map((m) => [m.role, m.metadata?.status])).toEqual([
      ["user", "done"],
      ["assistant", "done"],
    ]);
    expect(textOfMessage(sumsPage.messages[0])).toBe("what is 2 + 3?");
    expect(sumsPage.messages[1].parts.find((p) => p.type === "tool-add")).toMatchObject({
      state: "output-available",
      input: { a: 2, b: 3 },
      output: { sum: 5 },
      approval: { id: approvalId, approved: true },
    });
    expect(textOfMessage(sumsPage.messages[1])).toBe("2 + 3 = 5.");

    // Each person's chat list holds their chats, titled as before.
    expect(await chatTitles(admin)).toEqual(originalLists.admin);
    expect(await chatTitles(member)).toEqual(originalLists.member);
    expect(originalLists.admin.map((c) => c.id)).toEqual([greeting.id]);
    expect(originalLists.member.map((c) => c.id).sort()).toEqual([sums.id, slowChat.id].sort());

    // The answer that was streaming at backup time: the new instance's recovery marks it interrupted
    // (its process is gone), keeping the text stored up to the snapshot.
    const recovered = await until("the restored streaming answer to be recovered", async () => {
      const page = await loadMessagePage(slowChat.id);
      return page.messages[1]?.metadata?.status !== "streaming" && page;
    });
    expect(recovered.messages[0]).toEqual(originalPages.slow.messages[0]); // the question, as asked
    const interrupted = recovered.messages[1];
    expect(interrupted.id).toBe(beforeBackup.id);
    expect(interrupted.metadata).toMatchObject({ status: "interrupted", finishReason: "interrupted" });
    expect(textOfMessage(interrupted)).toBe(snapshotText);
    expect(snapshotText.length).toBeGreaterThan(0);
    expect(finalText.startsWith(snapshotText)).toBe(true);
    expect(interrupted.parts.filter((p) => p.type === "text").map((p) => ("state" in p ? p.state : undefined))).toEqual(["done"]);

    // The restored key opens what the original sealed: the stored provider keys, and a new question in
    // the recovered chat reaches the slow model with its key.
    const restoredPrisma = await db();
    const providers = await restoredPrisma.provider.findMany({ where: { teamId: admin.team.id } });
    expect(Object.fromEntries(providers.map((p) => [p.name, decryptSecret(p.apiKeyEnc!)]))).toEqual({
      aimock: DEFAULT_PROVIDER_KEY,
      Slow: SLOW_PROVIDER_KEY,
    });
    const asked2 = storedTurn();
    const followChunks = await readChunks(await runTurn(member, { chatId: slowChat.id, text: FOLLOW_UP }, { onStored: asked2.onStored }));
    expect(textOf(followChunks)).toBe(FOLLOW_UP_ANSWER);
    expect((await asked2.promise).status).toBe("done");
    expect(slowServer.requests.at(-1)?.headers.authorization).toBe(`Bearer ${SLOW_PROVIDER_KEY}`);
    const afterFollowUp = await loadMessagePage(slowChat.id);
    expect(afterFollowUp.messages.map((m) => [m.role, m.metadata?.status])).toEqual([
      ["user", "done"],
      ["assistant", "interrupted"],
      ["user", "done"],
      ["assistant", "done"],
    ]);
  }, 240_000);
});
