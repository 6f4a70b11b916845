// Runs the e2e suite as E2E_SHARDS Playwright shards side by side (default 1). Each shard is a whole
// stack of its own: its own app server on a fresh data directory, scripted upstream, MCP test server
// and ports, so shards share nothing but the machine. On two cores, two shards (two browsers, two
// servers) overloaded the machine and a dozen specs timed out, so one is the default; give a shard
// two cores of its own.
// Console: each shard's lines, prefixed; of the app servers' own logs only what looks like an error
// (all of it goes to the shard's log file). Extra arguments go to every `playwright test`.
import { spawn } from "node:child_process";
import fs from "node:fs";
import readline from "node:readline";

const shards = Math.max(1, Number(process.env.E2E_SHARDS || 1));
const basePort = Number(process.env.E2E_PORT || 3210);
const baseUpstream = Number(process.env.E2E_UPSTREAM_PORT || 4011);
const baseMcp = Number(process.env.E2E_MCP_PORT || 4331);
const baseBalancer = Number(process.env.E2E_BALANCER_PORT || 3240);
const SERVER_TROUBLE = /\b(error|unhandled|exception|fatal)\b/i;
const STRIDE = 40; // a shard uses its base port and up to +15 (cluster, CSRF, first-hour, trace, email specs), its balancer +2; its upstream +21 (the SMTP server and its mailbox)

function runShard(index) {
  const port = basePort + STRIDE * index;
  const env = {
    ...process.env,
    E2E_PORT: String(port),
    E2E_UPSTREAM_PORT: String(baseUpstream + STRIDE * index),
    E2E_MCP_PORT: String(baseMcp + STRIDE * index),
    E2E_BALANCER_PORT: String(baseBalancer + STRIDE * index),
  };
  const args = ["playwright", "test", ...(shards > 1 ? [`--shard=${index + 1}/${shards}`] : []), ...process.argv.slice(2)];
  const outDir = `test-results-${port}`;
  fs.mkdirSync(outDir, { recursive: true });
  const logPath = `${outDir}-e2e.log`;
  const log = fs.createWriteStream(logPath);
  const child = spawn(process.execPath, ["node_modules/@playwright/test/cli.js", ...args.slice(1)], { env, stdio: ["ignore", "pipe", "pipe"] });
  children.add(child);
  const tag = shards > 1 ? `[e2e ${index + 1}/${shards}] ` : "";
  for (const stream of [child.stdout, child.stderr]) {
    readline.createInterface({ input: stream }).on("line", (line) => {
      log.write(`${line}\n`);
      if (!line.startsWith("[WebServer]") || SERVER_TROUBLE.test(line)) console.log(tag + line);
    });
  }
  return new Promise((resolve) => {
    child.on("close", (code) => {
      log.end();
      resolve({ index, code: code ?? 1, logPath, tag });
    });
  });
}

// Stopping the runner stops every shard (and with it the servers its Playwright started).
const children = new Set();
for (const sig of ["SIGINT", "SIGTERM"])
  process.on(sig, () => {
    for (const c of children) c.kill(sig);
  });

const results = await Promise.all(Array.from({ length: shards }, (_, i) => runShard(i)));
const failed = results.filter((r) => r.code !== 0);
for (const r of failed) console.log(`\n${r.tag}failed (exit ${r.code}); its whole log, with the app server's, is in ${r.logPath}`);
if (shards > 1) console.log(failed.length ? `\ne2e: ${failed.length} of ${shards} shards failed` : `\ne2e: all ${shards} shards passed`);
process.exit(failed.length ? 1 : 0);
