// The bench's processes and clean-up: whatever is started or created registers an undo step, and the
// steps run once, newest first; process groups we started are killed even on an abrupt exit.
import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import net from "node:net";

type Undo = () => unknown;
const undo: Undo[] = [];
const groups = new Set<number>();
let cleaning: Promise<void> | undefined;

export function log(msg: string): void {
  process.stderr.write(`[bench] ${msg}\n`);
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** Registers a step for clean-up (run newest first). */
export function onCleanup(step: Undo): void {
  undo.push(step);
}

export function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    while (undo.length) {
      const step = undo.pop()!;
      try {
        await step();
      } catch (err) {
        log(`cleanup: ${errorText(err)}`);
      }
    }
  })();
  return cleaning;
}

/** Signals clean up and exit; on exit every process group still alive is killed. */
export function installExitHandlers(): void {
  for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.on(sig, () => {
      log(`${sig}: cleaning up`);
      void cleanup().finally(() => process.exit(130));
    });
  }
  process.on("exit", () => {
    for (const pgid of groups) {
      try {
        process.kill(-pgid, "SIGKILL");
      } catch {
        /* already gone */
      }
    }
  });
}

/** Starts node in its own process group (so it and its children can be stopped together). */
export function spawnGroup(args: string[], opts: SpawnOptions): ChildProcess {
  const child = spawn(process.execPath, args, { ...opts, detached: true });
  const pid = child.pid!;
  groups.add(pid);
  child.once("exit", () => groups.delete(pid));
  return child;
}

const alive = (child: ChildProcess | undefined): child is ChildProcess => !!child && child.exitCode === null && child.signalCode === null;

/** Stops a process group: SIGTERM, then SIGKILL after a grace period. */
export async function killGroup(child: ChildProcess | undefined, graceMs = 5000): Promise<void> {
  if (!alive(child)) return;
  const exited = new Promise((r) => child.once("exit", r));
  try {
    process.kill(-child.pid!, "SIGTERM");
  } catch {
    return;
  }
  const t = setTimeout(() => {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      /* gone */
    }
  }, graceMs);
  await exited;
  clearTimeout(t);
}

/** Kills a process group at once (a server that is hopelessly behind; nothing to shut down cleanly). */
export async function killNow(child: ChildProcess | undefined): Promise<void> {
  if (!alive(child)) return;
  const exited = new Promise((r) => child.once("exit", r));
  try {
    process.kill(-child.pid!, "SIGKILL");
  } catch {
    return;
  }
  await exited;
}

// Ports: from the range given with --ports, else any free one the system hands out (avoiding the
// ports the app and its tests use by default).
const RESERVED_PORTS = [3000, 3100, 3210, 4011];
let portRange: [number, number] | undefined;
const taken = new Set<number>();

export function setPortRange(range: [number, number] | undefined): void {
  portRange = range;
}

function tryListen(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.unref();
    srv.once("error", () => resolve(undefined));
    srv.listen(port, "127.0.0.1", () => {
      const address = srv.address();
      const got = typeof address === "object" && address ? address.port : undefined;
      srv.close(() => resolve(got));
    });
  });
}

/** A port nothing listens on now, not handed out before in this run. */
export async function freePort(): Promise<number> {
  if (portRange) {
    for (let p = portRange[0]; p <= portRange[1]; p++) {
      if (taken.has(p)) continue;
      if ((await tryListen(p)) === p) {
        taken.add(p);
        return p;
      }
    }
    throw new Error(`no free port left in ${portRange[0]}-${portRange[1]} (--ports)`);
  }
  for (;;) {
    const p = await tryListen(0);
    if (p && !RESERVED_PORTS.includes(p) && !taken.has(p)) {
      taken.add(p);
      return p;
    }
  }
}
