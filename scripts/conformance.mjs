// Runs every client scenario of the pinned MCP conformance suite against Parley's client
// (scripts/mcp-conformance-client.ts: lib/mcp/connection.ts, and for auth/* Parley's OAuth code on the
// SDK's client auth), once for each protocol revision the suite scores it at (`list` tags it with
// them: 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28), with that revision's wire. Nothing is
// expected to fail: a failure, a warning, a timeout or a scenario the runner skips fails the run.
// Scenarios tagged [extension] are not part of any revision and are left out (LEFT_OUT says why).
// The suite's runner needs Node 22 or newer: it runs on the Node that runs this (node-runtime.mjs).
// `node scripts/conformance.mjs <scenario>[@<revision>]...` runs only those.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { requireNode } from "./node-runtime.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const runner = path.join(root, "node_modules/@modelcontextprotocol/conformance/dist/index.js");
const tsx = path.join(root, "node_modules/tsx/dist/cli.mjs");
const client = path.join(root, "scripts/mcp-conformance-client.ts");

/** Extension scenarios, each with the reason it is not run. */
const LEFT_OUT = {
  "auth/client-credentials-jwt": "machine-to-machine OAuth: Parley calls servers for a member or with the team's shared token, never as itself",
  "auth/client-credentials-basic": "machine-to-machine OAuth, as above",
  "auth/enterprise-managed-authorization": "needs the member's identity-provider ID token kept at sign-in and exchanged (ID-JAG); not built",
  "auth/dpop": "DPoP-bound tokens: Parley's stored credentials carry no proof-of-possession key yet",
  "auth/dpop-nonce": "DPoP, as above",
  "auth/wif-jwt-bearer": "workload identity federation: Parley has no workload identity to present",
  "sep-2640-client-no-prefetch": "skills extension: Parley does not read server skills",
  "sep-2640-client-verify-digest": "skills extension, as above",
  "sep-2640-client-verify-size": "skills extension, as above",
  "sep-2640-client-verify-frontmatter": "skills extension, as above",
};

requireNode();

/** The client scenarios the runner lists, with their revision tags: `- name [2025-11-25,2026-07-28]`. */
function clientScenarios() {
  const res = spawnSync(process.execPath, [runner, "list"], { encoding: "utf8", timeout: 30_000 });
  if (res.status !== 0) throw new Error(`the conformance runner could not list its scenarios: ${res.stderr}`);
  const section = (res.stdout.split(/Client scenarios.*\n/)[1] ?? "").split(/\n\s*\n/)[0];
  return [...section.matchAll(/^\s+- (\S+)\s+\[([^\]]*)\]/gm)].map((m) => ({ name: m[1], tags: m[2].split(",").map((t) => t.trim()) }));
}

const listed = clientScenarios();
if (!listed.length) {
  console.error("MCP conformance: the runner listed no client scenarios.");
  process.exit(1);
}
const unknownExtensions = listed.filter((s) => s.tags.includes("extension") && !LEFT_OUT[s.name]);
if (unknownExtensions.length) {
  console.error(`MCP conformance: new extension scenarios to decide on: ${unknownExtensions.map((s) => s.name).join(", ")}`);
  process.exit(1);
}
let runs = listed.flatMap((s) => s.tags.filter((t) => /^\d{4}-\d{2}-\d{2}$/.test(t)).map((revision) => ({ name: s.name, revision })));
const wanted = process.argv.slice(2);
if (wanted.length) runs = runs.filter((r) => wanted.some((w) => w === r.name || w === `${r.name}@${r.revision}`));
if (!runs.length) {
  console.error(`MCP conformance: no scenario matches ${wanted.join(" ")}.`);
  process.exit(1);
}

// Results (checks.json per run) go to a scratch directory, not the working tree. Runs go two at a
// time (each waits mostly on its own servers and timers).
const JOBS = 2;
const work = fs.mkdtempSync(path.join(os.tmpdir(), "parley-conformance-"));
const failed = [];
const byRevision = {};
const started = Date.now();

function run({ name, revision }) {
  return new Promise((resolve) => {
    const command = [process.execPath, tsx, client].map((s) => JSON.stringify(s)).join(" ");
    const child = spawn(process.execPath, [runner, "client", "--command", command, "--scenario", name, "--spec-version", revision, "--timeout", "30000"], {
      // Each in a directory of its own: the runner writes its results under its working directory.
      cwd: fs.mkdtempSync(path.join(work, "s-")),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    const killer = setTimeout(() => child.kill("SIGKILL"), 120_000);
    child.on("close", (code) => {
      clearTimeout(killer);
      const summary = out.match(/Passed: \d+\/\d+.*|OVERALL: \w+/g)?.join(" · ") ?? "no summary";
      // A scenario the runner does not apply at this revision is a mismatch with its own listing.
      const skipped = /^SKIPPED: scenario/m.test(out);
      const ok = code === 0 && !skipped;
      const tally = (byRevision[revision] ??= { passed: 0, total: 0 });
      tally.total++;
      if (ok) tally.passed++;
      else failed.push(`${name}@${revision}`);
      console.log(`${ok ? "ok  " : "FAIL"} ${name} @ ${revision}: ${skipped ? "skipped by the runner" : summary}`);
      if (!ok) console.log(out.split("\n").slice(-40).join("\n"));
      resolve();
    });
  });
}

const queue = [...runs];
await Promise.all(
  Array.from({ length: Math.min(JOBS, queue.length) }, async () => {
    while (queue.length) await run(queue.shift());
  }),
);
fs.rmSync(work, { recursive: true, force: true });
for (const [revision, t] of Object.entries(byRevision).sort()) console.log(`  ${revision}: ${t.passed}/${t.total} passed`);
if (!wanted.length) console.log(`  left out (extensions): ${Object.keys(LEFT_OUT).join(", ")}`);
console.log(
  `MCP conformance (client): ${runs.length - failed.length}/${runs.length} passed in ${((Date.now() - started) / 1000).toFixed(1)} s${failed.length ? `; failed: ${failed.join(", ")}` : ""}`,
);
process.exit(failed.length ? 1 : 0);
