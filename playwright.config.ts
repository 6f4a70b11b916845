// e2e in Chromium against `next build` + `next start` on a fresh data directory (e2e/start-server.mjs).
// Uses Debian's headless Chromium when there is one (no browser download needed; test/support/chromium.ts).
import { defineConfig, devices } from "@playwright/test";
import { UPSTREAM_FIXTURE_FILES } from "./e2e/upstream-fixtures";
import { CHROMIUM_EXECUTABLE } from "./test/support/chromium";

const PORT = Number(process.env.E2E_PORT || 3210);
const UPSTREAM_PORT = Number(process.env.E2E_UPSTREAM_PORT || 4011);
// The test SMTP server and its JSON mailbox (e2e/mail-server.ts, read through e2e/mailbox.ts).
const SMTP_PORT = Number(process.env.E2E_SMTP_PORT || UPSTREAM_PORT + 20);

// Specs that change what every other spec sees while they run: the scripted upstream's fixtures (replaced
// through its control API), the instance's sign-in methods. They run one at a time after the rest; every
// other spec file works in a team of its own (e2e/own-team.ts) and runs beside another.
const ALONE = /\/(balanced|images|oversized|sso)\.spec\.ts$/;

export default defineConfig({
  testDir: "e2e",
  // Per port (see e2e/helpers.ts OUTPUT_DIR), so side-by-side runs do not delete each other's state.
  outputDir: process.env.E2E_PORT ? `test-results-${process.env.E2E_PORT}` : "test-results",
  // Files spread over the workers, each file's tests in order in one worker. Spec files are independent
  // (each in a team, or with accounts, of its own), so two run side by side by default; E2E_WORKERS
  // overrides it. Two, not more: the suite is bound by CPU (the browser's renderer, the app server). It
  // used 1,165-1,264 CPU-seconds in runs with two workers, which is 10-10.5 min of both cores of a 2-core
  // machine. Measured there in November 2026, with other work on the machine (both cores 98-99% busy):
  // one worker about 15.5 min; two 13.6, 17.1, 15.4 and 15.5 min; three 12.4 min for 128 of the 142
  // tests (the rest not reached after a failure). More workers only share the cores, and a slow page
  // then outlasts an expectation's timeout more often.
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS || 2),
  retries: 0,
  forbidOnly: !!process.env.CI,
  // Timeouts catch a hang, not slowness (speed is the bench's): machines of this kind differ by 2-3× in
  // speed (on November 29, 2026 one ran the e2e suite three times slower than the day before, a third
  // of its CPU in the kernel's page faults, and e2e/chat-list.spec.ts's New chat journey outlasted 30 s).
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    baseURL: `http://localhost:${PORT}`,
    // Recording a trace of every test took a third of the suite's CPU (DOM snapshots at each step,
    // screenshots): off unless E2E_TRACE=on, which keeps the traces of failed tests (without screenshots).
    // A failed test still leaves error-context.md (the page's accessibility tree) and the server's log.
    trace: process.env.E2E_TRACE === "on" ? { mode: "retain-on-failure", screenshots: false } : "off",
    reducedMotion: "reduce",
    launchOptions: {
      executablePath: CHROMIUM_EXECUTABLE,
      // No GPU process: headless pages here draw nothing that needs one, and it took 20–30% of a core.
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
    },
  },
  projects: [
    { name: "setup", testMatch: /first-run\.setup\.ts/, use: { ...devices["Desktop Chrome"] } },
    { name: "chromium", testMatch: /.*\.spec\.ts/, testIgnore: ALONE, dependencies: ["setup"], use: { ...devices["Desktop Chrome"] } },
    { name: "alone", testMatch: ALONE, dependencies: ["chromium"], workers: 1, use: { ...devices["Desktop Chrome"] } },
  ],
  webServer: [
    {
      // The scripted OpenAI-compatible upstream the app's seeded provider talks to.
      command: `node node_modules/@copilotkit/aimock/dist/cli.js ${UPSTREAM_FIXTURE_FILES.map((f) => `-f ${f}`).join(" ")} -p ${UPSTREAM_PORT} -h 127.0.0.1 -c 6 --validate-on-load --log-level warn`,
      url: `http://127.0.0.1:${UPSTREAM_PORT}/health`,
      timeout: 30_000,
      reuseExistingServer: false,
    },
    {
      // Every message the app sends lands here (the app gets its SMTP_URL below): specs read it over HTTP.
      command: `node node_modules/tsx/dist/cli.mjs e2e/mail-server.ts --smtp-port ${SMTP_PORT} --http-port ${SMTP_PORT + 1}`,
      url: `http://127.0.0.1:${SMTP_PORT + 1}/health`,
      timeout: 30_000,
      reuseExistingServer: false,
    },
    {
      command: `node e2e/start-server.mjs`,
      env: { PORT: String(PORT), UPSTREAM_URL: `http://127.0.0.1:${UPSTREAM_PORT}/v1`, SMTP_URL: `smtp://127.0.0.1:${SMTP_PORT}` },
      url: `http://localhost:${PORT}/api/health`,
      timeout: 120_000,
      reuseExistingServer: false,
      stdout: "pipe",
      stderr: "pipe",
    },
  ],
});
