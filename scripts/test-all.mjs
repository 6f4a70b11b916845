// `npm test`: every suite, in the order that fails fastest, with each stage's time at the end (CI's
// budget is kept in docs/testing.md). Typecheck and lint are independent and run side by side; the
// unit suite, the e2e suite and the MCP conformance suite each use both cores of a two-core machine
// and run one after the other. The e2e suite's production build (`next build`) runs beside the unit
// suite at the lowest CPU priority: the unit suite leaves a core idle for part of its time (it waits
// on databases and servers), and the build takes that time instead of a stage of its own. The first
// stage that fails stops the run.
import { spawn } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { requireNode } from "./node-runtime.mjs";

requireNode();

// Every Node process the suites start keeps the code it compiled for the next one (Node's compile
// cache): the conformance suite alone starts more than a hundred short-lived ones, and took 92
// CPU-seconds with the cache against 116 without (November 29, 2026).
process.env.NODE_COMPILE_CACHE ??= path.join(os.tmpdir(), "parley-node-compile-cache");

/**
 * Runs a command; resolves with its exit code. `quiet`: its output is kept and printed when it ends,
 * so that it does not interleave with the stage beside it. `nice`: at the lowest CPU priority.
 */
function run(command, args, { quiet = false, nice = false } = {}) {
  const [cmd, argv] = nice && process.platform !== "win32" ? ["nice", ["-n", "19", command, ...args]] : [command, args];
  return new Promise((resolve) => {
    const child = spawn(cmd, argv, { stdio: quiet ? ["ignore", "pipe", "pipe"] : "inherit" });
    const out = [];
    if (quiet) for (const stream of [child.stdout, child.stderr]) stream.on("data", (d) => out.push(d));
    child.on("exit", (code, signal) => {
      if (quiet) process.stdout.write(Buffer.concat(out));
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

const npm = (script, opts) => ({ name: script, start: () => run("npm", ["run", "--silent", script], opts) });
const stages = [
  [npm("typecheck"), npm("lint")],
  [npm("test:unit"), npm("build", { quiet: true, nice: true })],
  [npm("test:e2e:built")],
  [npm("test:conformance")],
];
const times = [];
let failed;
for (const stage of stages) {
  const started = performance.now();
  const codes = await Promise.all(stage.map((job) => job.start()));
  times.push([stage.map((job) => job.name).join(" + "), (performance.now() - started) / 1000]);
  const bad = stage.find((_, i) => codes[i] !== 0);
  if (bad) {
    failed = bad.name;
    break;
  }
}
console.log("\nstage times:");
for (const [name, s] of times) console.log(`  ${name.padEnd(24)} ${Math.floor(s / 60)} min ${Math.round(s % 60)} s`);
if (failed) {
  console.error(`\nnpm test: ${failed} failed`);
  process.exit(1);
}
