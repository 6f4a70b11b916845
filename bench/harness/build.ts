// The production builds the bench serves: this tree's (built when the sources are newer than it), and
// a private copy of it, so another engineer's `next build` cannot pull it away mid-run.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { errorText, log, onCleanup, sleep } from "./lifecycle";

const SOURCES = ["app", "lib", "components", "public", "prisma", "next.config.ts", "instrumentation.ts", "package.json", "tsconfig.json", "postcss.config.mjs"];
const SKIP = new Set(["node_modules", ".next", "data", "test-results", ".tmp", ".git", "e2e", "generated"]);

function sourcesNewestMtime(root: string): number {
  let newest = 0;
  const walk = (p: string) => {
    let st: fs.Stats;
    try {
      st = fs.statSync(p);
    } catch {
      return;
    }
    if (st.isDirectory()) {
      if (SKIP.has(path.basename(p))) return;
      for (const name of fs.readdirSync(p)) walk(path.join(p, name));
    } else if (!/\.test\.(ts|tsx|mjs)$/.test(p)) {
      newest = Math.max(newest, st.mtimeMs);
    }
  };
  for (const p of SOURCES) walk(path.join(root, p));
  return newest;
}

/** Runs `next build` in `dir` (three attempts: another build may hold the lock); returns the seconds it took. */
export async function nextBuild(dir: string, distDir: string): Promise<number> {
  for (let attempt = 1; attempt <= 3; attempt++) {
    const t = performance.now();
    try {
      execFileSync(process.execPath, ["node_modules/next/dist/bin/next", "build"], {
        cwd: dir,
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NEXT_DIST_DIR: distDir },
        maxBuffer: 64 * 1024 * 1024,
      });
      return (performance.now() - t) / 1000;
    } catch (err) {
      const e = err as { stdout?: Buffer; stderr?: Buffer };
      const out = `${e.stdout ?? ""}${e.stderr ?? ""}`.split("\n").slice(-15).join("\n") || errorText(err);
      log(`next build failed in ${dir} (attempt ${attempt}/3; another build may be running):\n${out}`);
      if (attempt < 3) await sleep(10_000);
    }
  }
  throw new Error(`next build failed three times in ${dir}`);
}

/** Builds this tree into `distDir` unless that build is newer than the sources (or `skip`); says which. */
export async function ensureBuild(root: string, distDir: string, skip: boolean): Promise<string> {
  const idFile = path.join(root, distDir, "BUILD_ID");
  const built = fs.existsSync(idFile) ? fs.statSync(idFile).mtimeMs : 0;
  if (built && (skip || built >= sourcesNewestMtime(root))) {
    log(`using the existing production build (${distDir})`);
    return "existing";
  }
  log(built ? `sources are newer than ${distDir}: building (next build)` : "no production build: building (next build)");
  const secs = await nextBuild(root, distDir);
  log(`built in ${secs.toFixed(1)} s`);
  return `built in ${secs.toFixed(0)} s`;
}

/**
 * Copies the production build (without its cache) and what `next start` reads at run time into a
 * temporary directory, which is the server's working directory; node_modules is linked. Waits while a
 * `next build` holds the build's lock.
 */
export async function snapshotBuild(root: string, distDir: string): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "parley-bench-app-"));
  onCleanup(() => fs.rmSync(dir, { recursive: true, force: true }));
  const src = path.join(root, distDir);
  const lock = path.join(src, "lock");
  const cache = path.join(src, "cache");
  const idFile = path.join(src, "BUILD_ID");
  const readId = () => (fs.existsSync(idFile) ? fs.readFileSync(idFile, "utf8") : undefined);
  for (let attempt = 0; attempt < 60; attempt++) {
    const id = readId();
    if (!id || fs.existsSync(lock)) {
      if (attempt === 0) log(`waiting for a running next build to finish (${distDir}/lock)`);
      await sleep(2000);
      continue;
    }
    fs.rmSync(path.join(dir, ".next"), { recursive: true, force: true });
    fs.cpSync(src, path.join(dir, ".next"), {
      recursive: true,
      verbatimSymlinks: true,
      filter: (p) => p !== lock && p !== cache && !p.startsWith(cache + path.sep),
    });
    if (readId() !== id || fs.existsSync(lock)) continue; // a build started while copying
    for (const f of ["package.json", "next.config.ts", "tsconfig.json"]) {
      if (fs.existsSync(path.join(root, f))) fs.copyFileSync(path.join(root, f), path.join(dir, f));
    }
    fs.cpSync(path.join(root, "prisma"), path.join(dir, "prisma"), { recursive: true });
    // next.config.ts imports from lib/ (the action guard), read when the server starts.
    fs.cpSync(path.join(root, "lib"), path.join(dir, "lib"), { recursive: true, filter: (p) => !p.includes(`${path.sep}generated`) });
    // All of scripts/: start.mjs imports its neighbours (the connection-address stamp, migrations).
    fs.cpSync(path.join(root, "scripts"), path.join(dir, "scripts"), { recursive: true });
    if (fs.existsSync(path.join(root, "public"))) fs.cpSync(path.join(root, "public"), path.join(dir, "public"), { recursive: true });
    fs.symlinkSync(path.join(root, "node_modules"), path.join(dir, "node_modules"), "dir");
    return dir;
  }
  throw new Error(`no complete production build in ${distDir} (a build kept running, or failed)`);
}
