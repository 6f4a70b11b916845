// The bare AI SDK relay (relay-process.mjs) in a process of its own: started against the same
// upstream as Parley, read as the browser reads Parley (UI message stream SSE); killed and started
// again when a burst through it is cut at its deadline.
import type { ChildProcess } from "node:child_process";
import path from "node:path";
import { streamSse, type StreamOptions, type StreamResult } from "./http";
import { freePort, killGroup, killNow, onCleanup, spawnGroup } from "./lifecycle";
import { uiText } from "./parley";
import { API_KEY, MODEL, type Upstream } from "./upstream";

export interface Relay {
  url: string;
  pid: number;
  child: ChildProcess;
  /** What it was started with, to start it again. */
  started: { root: string; up: Upstream; nodeArgs: string[] };
}

/** `nodeArgs`: the server's own (--server-node-args), so that a profile of one has one of the other. */
export async function startRelay(root: string, up: Upstream, nodeArgs: string[] = []): Promise<Relay> {
  const cfg = { port: await freePort(), upstream: `${up.url}/v1`, apiKey: API_KEY, model: MODEL };
  const child = spawnGroup([...nodeArgs, path.join(import.meta.dirname, "relay-process.mjs"), JSON.stringify(cfg)], {
    cwd: root,
    env: { ...process.env, NODE_ENV: "production", NODE_OPTIONS: "" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  onCleanup(() => killGroup(child));
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    const t = setTimeout(() => reject(new Error("the bare relay did not start in 15 s")), 15_000);
    child.stdout!.on("data", (d: Buffer) => {
      out += d;
      const line = out.split("\n").find((l) => l.startsWith("{"));
      if (line) {
        clearTimeout(t);
        resolve((JSON.parse(line) as { url: string }).url);
      }
    });
    child.once("exit", (code) => reject(new Error(`the bare relay exited (${code}) before it started`)));
  });
  child.stdout!.resume();
  return { url, pid: child.pid!, child, started: { root, up, nodeArgs } };
}

/** Kills the relay at once (nothing of a cut burst may run on) and starts a new one in its place. */
export async function restartRelay(relay: Relay): Promise<void> {
  await killNow(relay.child);
  const { root, up, nodeArgs } = relay.started;
  Object.assign(relay, await startRelay(root, up, nodeArgs));
}

/** One answer through the bare relay: the question "bench <label>". */
export function relayStream(relay: Relay, label: string, opts?: StreamOptions): Promise<StreamResult> {
  return streamSse(`${relay.url}/`, { prompt: `bench ${label}` }, {}, uiText, opts);
}
