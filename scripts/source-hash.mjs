// The fingerprint of the source a build is made from: a sha256 over the files `next build` reads
// (app/, components/, lib/ less tests, the root configs, the lockfile), by path and content. The build
// takes it as its build id (next.config.ts), so `npm start` (scripts/start.mjs) can tell whether the
// build on disk is one of this source, and build only when it is not.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

const DIRS = ["app", "components", "lib", "public"];
const FILES = [
  "next.config.ts",
  "proxy.ts",
  "instrumentation.ts",
  "postcss.config.mjs",
  "tsconfig.json",
  "package.json",
  "package-lock.json",
  "scripts/source-hash.mjs",
];
const SKIP = /\.test\.tsx?$/;

function walk(root, dir, out) {
  let entries;
  try {
    entries = fs.readdirSync(path.join(root, dir), { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) walk(root, rel, out);
    else if (e.isFile() && !SKIP.test(e.name)) out.push(rel);
  }
}

/** The source fingerprint of the project at `root` (hex, 20 characters). */
export function sourceHash(root = process.cwd()) {
  const files = [];
  for (const dir of DIRS) walk(root, dir, files);
  for (const file of FILES) if (fs.existsSync(path.join(root, file))) files.push(file);
  const hash = crypto.createHash("sha256");
  for (const file of files.sort()) {
    hash
      .update(file)
      .update("\0")
      .update(fs.readFileSync(path.join(root, file)))
      .update("\0");
  }
  return hash.digest("hex").slice(0, 20);
}
