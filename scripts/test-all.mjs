// `npm test`: every suite, in the order that fails fastest, with each stage's time at the end (CI's
// budget is kept in docs/testing.md). Typecheck and lint are independent and run side by side; the
// unit suite, the e2e suite (after `next build`) and the MCP conformance suite each use both cores of a
// two-core machine and run one after the other. The first stage that fails stops the run.
import { spawn } from "node:child_process";
import { requireNode } from "./node-runtime.mjs";

requireNode();

/** Runs an npm script with this terminal; resolves with its exit code. */
function run(script) {
  return new Promise((resolve) => {
    const child = spawn("npm", ["run", "--silent", script], { stdio: "inherit" });
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

const stages = [["typecheck", "lint"], ["test:unit"], ["test:e2e"], ["test:conformance"]];
const times = [];
let failed;
for (const stage of stages) {
  const started = performance.now();
  const codes = await Promise.all(stage.map(run));
  times.push([stage.join(" + "), (performance.now() - started) / 1000]);
  const bad = stage.find((_, i) => codes[i] !== 0);
  if (bad) {
    failed = bad;
    break;
  }
}
console.log("\nstage times:");
for (const [name, s] of times) console.log(`  ${name.padEnd(20)} ${Math.floor(s / 60)} min ${Math.round(s % 60)} s`);
if (failed) {
  console.error(`\nnpm test: ${failed} failed`);
  process.exit(1);
}
