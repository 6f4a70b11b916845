// What a real OTLP receiver gets from the production server (scripts/start.mjs, a fresh data
// directory, OTEL_EXPORTER_OTLP_ENDPOINT set as an operator would): Next.js's own HTTP and page spans
// and Parley's. Pages whose address holds a secret — a password-reset token, an invite token, a search
// term, an invite path inside `next=` — are requested, and the bytes the receiver got must hold none of
// them, while they do hold the redacted page spans.
import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { SIGNED_OUT } from "./helpers";

const PORT = Number(process.env.E2E_PORT || 3210) + 13;
const ORIGIN = `http://127.0.0.1:${PORT}`;

test.use(SIGNED_OUT);

let server: ChildProcess;
let receiver: http.Server;
let dataDir: string;
let received = "";
let log = "";

test.beforeAll(async () => {
  test.setTimeout(180_000);
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (req.url === "/v1/traces") received += Buffer.concat(chunks).toString("utf8");
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "parley-e2e-traces-"));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PARLEY_DATA_DIR: dataDir,
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`,
    OTEL_BSP_SCHEDULE_DELAY: "100",
  };
  for (const key of ["DATABASE_URL", "REDIS_URL", "PARLEY_URL", "BETTER_AUTH_URL", "PARLEY_PROCESSES", "PARLEY_SECRET_KEY"]) delete env[key];
  server = spawn(process.execPath, ["scripts/start.mjs", "-p", String(PORT), "-H", "127.0.0.1"], { stdio: ["ignore", "pipe", "inherit"], env });
  server.stdout!.setEncoding("utf8").on("data", (d: string) => (log += d));
  await expect.poll(() => log, { timeout: 150_000 }).toContain(`Parley is ready at ${ORIGIN}`);
});

test.afterAll(async () => {
  if (server?.exitCode === null) {
    const exited = new Promise((r) => server.once("exit", r));
    server.kill("SIGTERM");
    await exited;
  }
  receiver?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

test("exported spans hold no reset or invite token, no search term and no query string", async ({ request }) => {
  test.setTimeout(90_000);
  expect(log).toContain("[otel] traces go to");
  const resetToken = `rst${crypto.randomBytes(12).toString("hex")}`;
  const inviteToken = `inv${crypto.randomBytes(12).toString("hex")}`;
  const nextToken = `nxt${crypto.randomBytes(12).toString("hex")}`;
  const word = `secretword${crypto.randomBytes(4).toString("hex")}`;
  for (const url of [`/reset/${resetToken}`, `/invite/${inviteToken}`, `/search?q=${word}`, `/sign-in?next=%2Finvite%2F${nextToken}`]) {
    await request.get(`${ORIGIN}${url}`, { maxRedirects: 0 });
  }
  // A last page: once its span has arrived, the spans of the requests before it have too (the batch
  // processor exports spans in the order they end).
  const marker = `last-page-${crypto.randomBytes(4).toString("hex")}`;
  await request.get(`${ORIGIN}/${marker}`, { maxRedirects: 0 });
  await expect.poll(() => received, { timeout: 30_000 }).toContain(marker);

  // The pages' own spans arrived, with the secret parts replaced.
  const leaked = { resetToken, inviteToken, nextToken, word };
  expect(
    Object.entries(leaked)
      .filter(([, secret]) => received.includes(secret))
      .map(([name]) => name),
  ).toEqual([]);
  expect(["/reset/[redacted]", "/invite/[redacted]", "/search?[redacted]", "/sign-in?[redacted]"].filter((s) => !received.includes(s))).toEqual([]);
});
