// Runs every client scenario of the pinned MCP conformance suite (as its runner lists them) against
// Parley's client (scripts/mcp-conformance-client.ts: lib/mcp/connection.ts, and for auth/* Parley's
// OAuth code on the SDK's client auth). The suite's runner needs Node 22 or newer: it runs on the Node
// that runs this (Node 24 under npm, see node-runtime.mjs). Known gaps, each with its reason, are in
// conformance-baseline.yml.
// `node scripts/conformance.mjs <scenario>...` runs only those.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
import { requireNode } from "./node-runtime.mjs";

const runner = path.join(root, "node_modules/@modelcontextprotocol/conformance/dist/index.js");
const tsx = path.join(root, "node_modules/tsx/dist/cli.mjs");
const client = path.join(root, "scripts/mcp-conformance-client.ts");
const baseline = path.join(root, "scripts/conformance-baseline.yml");

requireNode();
/** The client scenarios the runner lists ("Client scenarios" section of `list`). */
function clientScenarios() {
  const res = spawnSync(process.execPath, [runner, "list"], { encoding: "utf8", timeout: 30_000 });
  if (res.status !== 0) throw new Error(`the conformance runner could not list its scenarios: ${res.stderr}`);
  const section = res.stdout.split(/Client scenarios.*\n/)[1] ?? "";
  return [...section.matchAll(/^\s+- (\S+)/gm)].map((m) => m[1]);
}

const SCENARIOS = process.argv.length > 2 ? process.argv.slice(2) : clientScenarios();
if (!SCENARIOS.length) {
  console.error("MCP conformance: the runner listed no client scenarios.");
  process.exit(1);
}
// Results (checks.json per scenario) go to a scratch directory, not the working tree. Scenarios run
// a few at a time (each waits mostly on its own servers and timers).
const JOBS = 2;
const work = fs.mkdtempSync(path.join(os.tmpdir(), "parley-conformance-"));
let failed = 0;
const started = Date.now();

function runScenario(scenario) {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [runner, "client", "--command", `${JSON.stringify(process.execPath)} ${JSON.stringify(tsx)} ${JSON.stringify(client)}`, "--scenario", scenario, "--expected-failures", baseline, "--timeout", "30000"],
      // Each in a directory of its own: the runner writes its results under its working directory.
      { cwd: fs.mkdtempSync(path.join(work, "s-")), stdio: ["ignore", "pipe", "pipe"] },
    );
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    const killer = setTimeout(() => child.kill("SIGKILL"), 120_000);
    child.on("close", (code) => {
      clearTimeout(killer);
      const summary = out.match(/Passed: \d+\/\d+.*|OVERALL: \w+/g)?.join(" · ") ?? "no summary";
      const ok = code === 0;
      if (!ok) failed++;
      console.log(`${ok ? "ok  " : "FAIL"} ${scenario}: ${summary}`);
      if (!ok) console.log(out.split("\n").slice(-40).join("\n"));
      resolve();
    });
  });
}

const queue = [...SCENARIOS];
await Promise.all(
  Array.from({ length: Math.min(JOBS, queue.length) }, async () => {
    while (queue.length) await runScenario(queue.shift());
  }),
);
fs.rmSync(work, { recursive: true, force: true });
console.log(`MCP conformance (client): ${SCENARIOS.length - failed}/${SCENARIOS.length} as expected in ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exit(failed ? 1 : 0);
