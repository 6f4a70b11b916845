// CPU accounting from /proc (Linux): the server's process tree, its PostgreSQL backends, the harness
// (this process and aimock), the whole machine, and the time the hypervisor stole from it.
import { execSync } from "node:child_process";
import fs from "node:fs";
import { performance } from "node:perf_hooks";

function clockTicks(): number {
  try {
    return Number(execSync("getconf CLK_TCK", { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim()) || 100;
  } catch {
    return 100;
  }
}
export const CLK_TCK = clockTicks();
const HAVE_PROC = fs.existsSync("/proc/self/stat");

function readStat(pid: number | string) {
  try {
    const s = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = s.slice(s.lastIndexOf(")") + 2).split(" ");
    return { ppid: Number(f[1]), user: Number(f[11]) + Number(f[13]), sys: Number(f[12]) + Number(f[14]) };
  } catch {
    return undefined;
  }
}

/** A process and all its live descendants. */
export function processTree(rootPid: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const st = readStat(name);
    if (!st) continue;
    if (!children.has(st.ppid)) children.set(st.ppid, []);
    children.get(st.ppid)!.push(Number(name));
  }
  const out: number[] = [];
  const stack = [rootPid];
  while (stack.length) {
    const pid = stack.pop()!;
    out.push(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return out;
}

/** CPU ms (user, kernel) of some processes: their own time plus that of children they have reaped. */
function cpuOf(pids: number[]) {
  let user = 0;
  let sys = 0;
  for (const pid of pids) {
    const st = readStat(pid);
    if (st) {
      user += st.user;
      sys += st.sys;
    }
  }
  return { user: (user * 1000) / CLK_TCK, sys: (sys * 1000) / CLK_TCK };
}

/** Whole-machine CPU time: busy (user, system, interrupts) and stolen by the hypervisor (steal), in ms. */
function machineCpuMs() {
  if (!HAVE_PROC) return { busy: NaN, steal: NaN };
  const f = fs.readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1).map(Number);
  const total = f.slice(0, 8).reduce((a, b) => a + b, 0);
  return { busy: ((total - f[3] - f[4] - f[7]) * 1000) / CLK_TCK, steal: (f[7] * 1000) / CLK_TCK };
}

export interface Snapshot {
  at: number;
  machine: number;
  steal: number;
  harness: number;
  server: { user: number; sys: number };
  db: Map<number, number>;
}

/** What a snapshot reads of a server: its root pid and, on PostgreSQL, its database backends. */
export interface Measured {
  pid: number;
  backendPids?: () => Promise<number[]>;
}

/** CPU counters at one moment; `upstreamPid` (aimock) counts with the harness. */
export async function snapshot(upstreamPid: number, server?: Measured): Promise<Snapshot> {
  const machine = machineCpuMs();
  const s: Snapshot = { at: performance.now(), machine: machine.busy, steal: machine.steal, harness: NaN, server: { user: NaN, sys: NaN }, db: new Map() };
  if (!HAVE_PROC) return s;
  const self = process.cpuUsage();
  const mock = cpuOf(processTree(upstreamPid));
  s.harness = mock.user + mock.sys + (self.user + self.system) / 1000;
  if (server) s.server = cpuOf(processTree(server.pid));
  if (server?.backendPids) {
    for (const pid of await server.backendPids()) {
      const c = cpuOf([pid]);
      s.db.set(pid, c.user + c.sys);
    }
  }
  return s;
}

export interface Cpu {
  wallMs: number;
  serverMs: number;
  serverSysMs: number;
  dbMs: number;
  harnessMs: number;
  machineMs: number;
  stealMs: number;
}
const CPU_KEYS = ["wallMs", "serverMs", "serverSysMs", "dbMs", "harnessMs", "machineMs", "stealMs"] as const;

/** Raw CPU deltas between two snapshots; phases made of several windows add them up. */
export function cpuBetween(a: Snapshot, b: Snapshot): Cpu {
  let db = 0;
  for (const [pid, ms] of b.db) db += ms - (a.db.get(pid) ?? 0);
  return {
    wallMs: b.at - a.at,
    serverMs: b.server.user + b.server.sys - (a.server.user + a.server.sys),
    serverSysMs: b.server.sys - a.server.sys,
    dbMs: b.db.size ? db : NaN,
    harnessMs: b.harness - a.harness,
    machineMs: b.machine - a.machine,
    stealMs: b.steal - a.steal,
  };
}

export function sumCpu(list: Cpu[]): Cpu {
  return Object.fromEntries(CPU_KEYS.map((k) => [k, list.reduce((acc, c) => acc + c[k], 0)])) as unknown as Cpu;
}

/** Whole-machine busy time not accounted for by the server, its database backends and the harness, in cores. */
export function otherCores(c: Cpu): number {
  const known = [c.serverMs, c.dbMs, c.harnessMs].filter(Number.isFinite).reduce((a, b) => a + b, 0);
  return Math.max(0, (c.machineMs - known) / c.wallMs);
}

/** CPU time the hypervisor gave to other guests while this machine wanted it, in cores. */
export const stolenCores = (c: Cpu) => c.stealMs / c.wallMs;
