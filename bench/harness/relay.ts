// The bare AI SDK relay (relay-process.mjs) in a process of its own: started against the same
// upstream as Parley, read as the browser reads Parley (UI message stream SSE).
import path from "node:path";
import { streamSse, type StreamOptions, type StreamResult } from "./http";
import { freePort, killGroup, onCleanup, spawnGroup } from "./lifecycle";
import { uiText } from "./parley";
import { API_KEY, MODEL, type Upstream } from "./upstream";

export interface Relay {
  url: string;
  pid: number;
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
  return { url, pid: child.pid! };
}

/** One answer through the bare relay: the question "bench <label>". */
export function relayStream(relay: Relay, label: string, opts?: StreamOptions): Promise<StreamResult> {
  return streamSse(`${relay.url}/`, { prompt: `bench ${label}` }, {}, uiText, opts);
}
