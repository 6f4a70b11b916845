// Compare mode's baseline: a git ref exported (git archive) into a temporary directory, with a
// hard-linked copy of node_modules (cp -al: nothing is downloaded or installed), its Prisma client,
// and a production build of its own. The directory is the baseline server's working directory.
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
  execFileSync("cp", ["-al", path.join(root, "node_modules"), path.join(dir, "node_modules")]);

  // The generated Prisma client is not in git: copy this tree's when the schema is the same, else generate it.
  const schema = "prisma/schema.prisma";
  const same = fs.readFileSync(path.join(root, schema), "utf8") === fs.readFileSync(path.join(dir, schema), "utf8");
  const generated = path.join(root, "lib/db/generated");
  if (same && fs.existsSync(generated)) {
    fs.cpSync(generated, path.join(dir, "lib/db/generated"), { recursive: true, dereference: true });
  } else {
    log("compare: the ref's Prisma schema differs: generating its client");
    execFileSync(process.execPath, ["scripts/prisma-generate.mjs"], { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
  }
  const lockSame = fs.readFileSync(path.join(root, "package-lock.json"), "utf8") === fs.readFileSync(path.join(dir, "package-lock.json"), "utf8");
  if (!lockSame) log("compare: WARNING: the ref's package-lock.json differs; it is built with this tree's node_modules");

  log(`compare: building ${ref} (next build)`);
  const secs = await nextBuild(dir, ".next");
  const total = (performance.now() - t) / 1000;
  log(`compare: ${ref} ready in ${total.toFixed(0)} s (build ${secs.toFixed(0)} s)`);
  return { dir, commit, note: `${ref} = ${commit.slice(0, 10)}, built in ${secs.toFixed(0)} s${lockSame ? "" : " (package-lock differs)"}` };
}
