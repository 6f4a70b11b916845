// A server killed mid-turn (SIGKILL, no chance to clean up): after a restart the message is
// `interrupted` and keeps what was stored, which lags the stream by at most one throttle window.
import { spawn } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { db } from "../db/client";
import { makeTempDir, removeDir } from "../../test/support/test-databases";
import { ready, shutdown } from "../startup";
import { markInterrupted, STALE_MS } from "./recovery";
import { storedAnswer } from "@/test/support/test-turns";

/** The answer test/support/crash-child.ts has its upstream stream. */
const ANSWER = Array.from({ length: 400 }, (_, i) => `t${i}`).join(" ");

describe("recovery after a crash", () => {
  const dir = makeTempDir();
  afterAll(async () => {
    await shutdown();
    removeDir(dir);
  });

  it("a process killed mid-turn leaves an interrupted message with the text up to the last throttle window", async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, PARLEY_DATA_DIR: dir };
    delete env.DATABASE_URL;
    const child = spawn(process.execPath, ["--import", "tsx", "test/support/crash-child.ts"], { env, stdio: ["ignore", "pipe", "inherit"] });
    let chatId = "";
    const samples: { at: number; length: number }[] = [];
    let out = "";
    await new Promise<void>((resolve, reject) => {
      child.on("exit", (code) => reject(new Error(`child exited early (${code})`)));
      child.stdout.on("data", (data: Buffer) => {
        out += data.toString();
        const lines = out.split("\n");
        out = lines.pop() ?? "";
        for (const line of lines) {
          const [kind, a, b] = line.split(" ");
          if (kind === "CHAT") chatId = a;
          if (kind === "STREAMED") samples.push({ at: Number(a), length: Number(b) });
          if (samples.length && samples[samples.length - 1].length > 300) {
            child.removeAllListeners("exit");
            child.kill("SIGKILL");
            resolve();
          }
        }
      });
    });
    const killedAt = Date.now();
    await new Promise((r) => child.on("exit", r));

    // Restart on the same data directory.
    process.env.PARLEY_DATA_DIR = dir;
    delete process.env.DATABASE_URL;
    await ready();
    const answer = await storedAnswer(chatId);
    expect(answer.status).toBe("interrupted");
    const text = answer.blocks.find((b) => b.kind === "text")?.text ?? "";
    expect(text.length).toBeGreaterThan(0);
    // Nothing invented or out of order: the stored text is the start of the answer (it may hold a few
    // characters more than the last length the parent heard of: the store folds each chunk as it is
    // sent, and the child went on until the kill reached it).
    expect(ANSWER.startsWith(text)).toBe(true);
    // What was streamed more than one throttle window (+ a write's time) before the kill is stored.
    const windowAgo = samples.filter((s) => s.at <= killedAt - 150 - 300).at(-1)?.length ?? 0;
    expect(text.length).toBeGreaterThanOrEqual(windowAgo);
    const chat = await (await db()).chat.findUniqueOrThrow({ where: { id: chatId } });
    expect(chat.activeStreamId).toBeNull();
  }, 180_000);

  it("on shared PostgreSQL only messages whose heartbeat went stale are taken", async () => {
    const prisma = await db();
    const chat = await prisma.chat.findFirstOrThrow();
    const fresh = await prisma.message.create({ data: { id: "fresh-turn", chatId: chat.id, role: "assistant", status: "streaming" } });
    const now = new Date(Date.now() + STALE_MS / 2);
    expect(await markInterrupted(prisma, { exclusive: false, now })).toBe(0);
    const later = new Date(fresh.updatedAt.getTime() + STALE_MS + 1);
    expect(await markInterrupted(prisma, { exclusive: false, now: later })).toBe(1);
    expect((await prisma.message.findUniqueOrThrow({ where: { id: fresh.id } })).status).toBe("interrupted");
  });
});
