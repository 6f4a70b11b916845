// Compare mode's baseline: a git ref exported (git archive) into a temporary directory, with a
// hard-linked copy of node_modules (cp -al: nothing is downloaded or installed) when its package-lock
// is this tree's, else its own dependencies installed from its lock (npm ci, from npm's cache where it
// can: a ref from before a dependency upgrade runs on what it shipped with), its Prisma client, and a
// production build of its own. The directory is the baseline server's working directory.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { nextBuild } from "./build";
import { log, onCleanup } from "./lifecycle";

const git = (root: string, args: string[]) => execFileSync("git", ["-C", root, ...args], { encoding: "utf8", maxBuffer: 256 * 1024 * 1024 }).trim();

export interface RefBuild {
  dir: string;
  commit: string;
  note: string;
}

export async function buildRef(root: string, ref: string): Promise<RefBuild> {
  let commit: string;
  try {
    commit = git(root, ["rev-parse", "--verify", "--quiet", `${ref}^{commit}`]);
  } catch {
    throw new Error(`--compare: "${ref}" is not a commit in this repository`);
  }
  const t = performance.now();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "parley-bench-ref-"));
  onCleanup(() => fs.rmSync(dir, { recursive: true, force: true }));
  log(`compare: exporting ${ref} (${commit.slice(0, 10)}) into ${dir}`);
  execFileSync("sh", ["-c", 'git -C "$1" archive --format=tar "$2" | tar -x -C "$3"', "sh", root, commit, dir]);
  const lockSame = fs.readFileSync(path.join(root, "package-lock.json"), "utf8") === fs.readFileSync(path.join(dir, "package-lock.json"), "utf8");
  if (lockSame) {
    execFileSync("cp", ["-al", path.join(root, "node_modules"), path.join(dir, "node_modules")]);
  } else {
    log(`compare: ${ref}'s package-lock.json differs: installing its own dependencies (npm ci)`);
    const npm = path.join(path.dirname(process.execPath), "npm");
    execFileSync(fs.existsSync(npm) ? npm : "npm", ["ci", "--prefer-offline", "--no-audit", "--no-fund"], {
      cwd: dir,
      stdio: ["ignore", "pipe", "pipe"],
      maxBuffer: 64 * 1024 * 1024,
    });
  }

  // The generated Prisma client is not in git: copy this tree's when the schema and the dependencies
  // are the same, else generate it (npm ci's postinstall did).
  const schema = "prisma/schema.prisma";
  const same = lockSame && fs.readFileSync(path.join(root, schema), "utf8") === fs.readFileSync(path.join(dir, schema), "utf8");
  const generated = path.join(root, "lib/db/generated");
  if (same && fs.existsSync(generated)) {
    fs.cpSync(generated, path.join(dir, "lib/db/generated"), { recursive: true, dereference: true });
  } else if (lockSame) {
    log("compare: the ref's Prisma schema differs: generating its client");
    execFileSync(process.execPath, ["scripts/prisma-generate.mjs"], { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
  }

  log(`compare: building ${ref} (next build)`);
  const secs = await nextBuild(dir, ".next");
  const total = (performance.now() - t) / 1000;
  log(`compare: ${ref} ready in ${total.toFixed(0)} s (build ${secs.toFixed(0)} s)`);
  return { dir, commit, note: `${ref} = ${commit.slice(0, 10)}, built in ${secs.toFixed(0)} s${lockSame ? "" : " on its own dependencies (npm ci)"}` };
}
