// The data-directory lock: PGlite does not lock its directory, and two processes writing one directory
// corrupt it, so a second Parley on the same directory must stop with a clear error.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DataDirLockedError, lockDataDir, openPGlite } from "./pglite-store";
import { makeTempDir, removeDir } from "../../test/support/test-databases";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

function tempDir(): string {
  const dir = makeTempDir();
  cleanups.push(() => removeDir(dir));
  return dir;
}

/** A live process that is not this one. */
async function otherProcess(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
  cleanups.push(() => {
    child.kill("SIGKILL");
  });
  await new Promise<void>((resolve, reject) => {
    child.once("spawn", () => resolve());
    child.once("error", reject);
  });
  return child;
}

/** The pid of a process that has exited. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
  const pid = Number(r.stdout);
  expect(Number.isInteger(pid) && pid > 0).toBe(true);
  return pid;
}

describe("lockDataDir", () => {
  it("takes the lock: writes this pid into <dir>/parley.lock, creating the directory", () => {
    const dir = path.join(tempDir(), "not", "yet");
    const release = lockDataDir(dir);
    expect(fs.readFileSync(path.join(dir, "parley.lock"), "utf8")).toBe(String(process.pid));
    release();
    expect(fs.existsSync(path.join(dir, "parley.lock"))).toBe(false);
  });

  it("a second lock by the same process is allowed (one process reopening its own directory)", () => {
    const dir = tempDir();
    const release = lockDataDir(dir);
    expect(() => lockDataDir(dir)).not.toThrow();
    release();
  });

  it("refuses a directory locked by another live process, naming the directory and the pid", async () => {
    const dir = tempDir();
    const child = await otherProcess();
    fs.writeFileSync(path.join(dir, "parley.lock"), String(child.pid));
    let err: unknown;
    try {
      lockDataDir(dir);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DataDirLockedError);
    expect((err as Error).message).toContain(dir);
    expect((err as Error).message).toContain(`pid ${child.pid}`);
    expect((err as Error).message).toMatch(/PARLEY_DATA_DIR/);
    // The other process keeps its lock.
    expect(fs.readFileSync(path.join(dir, "parley.lock"), "utf8")).toBe(String(child.pid));
  });

  it("openPGlite on a directory another live process holds fails before touching the database", async () => {
    const dir = tempDir();
    const child = await otherProcess();
    fs.writeFileSync(path.join(dir, "parley.lock"), `${child.pid}\n`);
    await expect(openPGlite(dir)).rejects.toBeInstanceOf(DataDirLockedError);
    expect(fs.existsSync(path.join(dir, "pglite"))).toBe(false);
  });

  it("takes over a stale lock left by a process that is gone", () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, "parley.lock"), String(deadPid()));
    const release = lockDataDir(dir);
    expect(fs.readFileSync(path.join(dir, "parley.lock"), "utf8")).toBe(String(process.pid));
    release();
  });

  it("takes over a lock file that holds no pid (a crash while writing it)", () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, "parley.lock"), "");
    const release = lockDataDir(dir);
    expect(fs.readFileSync(path.join(dir, "parley.lock"), "utf8")).toBe(String(process.pid));
    release();
  });

  it("release does not remove a lock another process has taken since", async () => {
    const dir = tempDir();
    const release = lockDataDir(dir);
    const child = await otherProcess();
    fs.writeFileSync(path.join(dir, "parley.lock"), String(child.pid));
    release();
    expect(fs.readFileSync(path.join(dir, "parley.lock"), "utf8")).toBe(String(child.pid));
  });

  it("the lock is released when the process exits", () => {
    const dir = tempDir();
    const before = new Set(process.listeners("exit"));
    lockDataDir(dir);
    const added = process.listeners("exit").filter((l) => !before.has(l));
    expect(added).toHaveLength(1);
    process.removeListener("exit", added[0]);
    (added[0] as () => void)();
    expect(fs.existsSync(path.join(dir, "parley.lock"))).toBe(false);
  });
});
