// Starts the production build for e2e (scripts/start.mjs, as `npm start` does; one process) on a fresh
// data directory (e2e/.data-<port>), so every run begins at first-run setup. Run `next build` first
// (npm run test:e2e does).
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const dir = path.resolve(`e2e/.data-${process.env.PORT || "3210"}`);
fs.rmSync(dir, { recursive: true, force: true });
const env = {
  ...process.env,
  PARLEY_DATA_DIR: dir,
  // The model provider is seeded from the environment and points at the scripted upstream.
  OPENAI_BASE_URL: process.env.UPSTREAM_URL,
  OPENAI_API_KEY: "sk-e2e-not-a-real-key-4242",
  PARLEY_DEFAULT_MODEL: "scripted-model",
  // The OpenAI Responses API (the default for OpenAI itself); Chat Completions is covered by lib tests.
  PARLEY_PROVIDER_KIND: "responses",
  PARLEY_CHAT_RATE_LIMIT: "1000",
  // Small, so the step-limit specs (e2e/turn-endings.spec.ts) are quick: a model looping a tool call
  // that asks first reaches it in a few approvals.
  PARLEY_STEP_LIMIT: "8",
  // The test SMTP server playwright.config.ts starts (e2e/mail-server.ts): email is on, on loopback.
  SMTP_URL: process.env.SMTP_URL,
  SMTP_FROM: "Parley <parley@e2e.test>",
};
for (const key of [
  "DATABASE_URL",
  "PARLEY_SECRET_KEY",
  "REDIS_URL",
  "PARLEY_URL",
  "BETTER_AUTH_URL",
  "PARLEY_PROCESSES",
  "SMTP_HOST",
  "SMTP_USER",
  "SMTP_PASSWORD",
])
  delete env[key];
// Idle connections stay open longer than any test runs: Playwright's API requests (page.request) reuse a
// pooled connection without reading the server's Keep-Alive timeout (5 s by default), so a request
// after a pause of about 5 s could meet the server closing that connection (read ECONNRESET), the
// busier the machine the likelier. Browsers honour the timeout; only the test client needs this.
const KEEP_ALIVE_MS = "300000";
const child = spawn(process.execPath, ["scripts/start.mjs", "-p", process.env.PORT || "3210", "--keepAliveTimeout", KEEP_ALIVE_MS], { stdio: "inherit", env });
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
child.on("exit", (code) => process.exit(code ?? 0));
