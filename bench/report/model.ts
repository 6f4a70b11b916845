// What the report is made of: the options, the upstream, the direct references, every server's run,
// and the machine it ran on; and the load readings (steal, other programs) behind its warnings.
import os from "node:os";
import { CLK_TCK, otherCores, stolenCores, type Cpu } from "../harness/cpu";
import type { Upstream } from "../harness/upstream";
import type { BenchOptions } from "../options";
import type { Direct, SuiteResult } from "../scenarios/context";
import { mean } from "./format";

export interface RunReport {
  o: BenchOptions;
  up: Upstream;
  direct: Direct;
  suites: SuiteResult[];
  buildNote: string;
  machine: { cpus: number; node: string; clkTck: number };
}

export const machineInfo = () => ({ cpus: os.cpus().length, node: process.version, clkTck: CLK_TCK });

export const LABEL: Record<string, string> = { pglite: "Parley PGlite", postgresql: "Parley PostgreSQL" };

/** The CPU windows the figures come from: one-stream phases and bursts through Parley. */
export function measuredCpu(suites: SuiteResult[]): Cpu[] {
  return suites.filter((s) => !s.skipped).flatMap((s) => [...(s.stream ? [s.stream.seqCpu] : []), ...[...s.bursts.values()].map((b) => b.cpu)]);
}

/** Mean cores stolen by the hypervisor and kept busy by other programs during the measured phases. */
export function loadReadings(suites: SuiteResult[]): { stolen: number; other: number } {
  const cpu = measuredCpu(suites);
  return { stolen: mean(cpu.map(stolenCores)), other: mean(cpu.map(otherCores)) };
}

/** The warnings printed above the figures when the machine was not quiet. */
export function loadWarnings(suites: SuiteResult[], cpus: number): string[] {
  const { stolen, other } = loadReadings(suites);
  const out: string[] = [];
  if (stolen > 0.1) {
    out.push(`WARNING: the hypervisor took ~${stolen.toFixed(2)} cores from this machine (steal) during the measured phases: every process ran`);
    out.push("slower than on a quiet machine, so absolute times are inflated; compare them with runs that show little steal.");
  }
  if (other > 0.25) {
    out.push(`WARNING: other programs kept ~${other.toFixed(2)} of ${cpus} cores busy during the measured phases; absolute figures are`);
    out.push("inflated by that, comparisons less so (direct and Parley runs alternate).");
  }
  return out;
}
