// The upstream: aimock in a child process streaming a long answer (one stream at a time) and a paced
// one (the bursts); its journal tells when each model call arrived; direct streams read it without Parley.
import path from "node:path";
import type { BenchOptions } from "../options";
import { request, streamSse, type StreamOptions, type StreamResult } from "./http";
import { freePort, killGroup, onCleanup, spawnGroup } from "./lifecycle";
import type { MockConfig } from "./aimock-process";

export const MODEL = "bench-model";
export const API_KEY = "sk-bench-not-a-real-key";
/** Prompts (last user message) containing this word get the paced answer; every prompt starts with "bench". */
export const PACED = "paced";
/** Prompts containing this word (and not PACED) get a short answer (the soak's many turns). */
export const SOAK = "soak";
/** Characters of the soak's short answer. */
export const SOAK_CHARS = 200;

export interface Upstream {
  url: string;
  pid: number;
  expectedChunks: number;
  expectedChars: number;
  pacedChunks: number;
  pacedChars: number;
  /** Journal entries already read. */
  seen: number;
}

export function benchText(chars: number): string {
  const words = (
    "the stream of a long answer moves through the model provider into the server where every chunk is parsed " +
    "checked stored and forwarded to the browser as quickly as it arrives so that a reader sees the words appear " +
    "steadily while the database keeps a copy that survives a restart and a second tab can resume the same answer"
  ).split(" ");
  let out = "";
  let n = 0;
  while (out.length < chars) {
    out += words[n % words.length];
    n++;
    out += n % 97 === 0 ? "\n\n" : n % 13 === 0 ? ". " : " ";
  }
  return out.slice(0, chars);
}

export async function startUpstream(root: string, o: BenchOptions): Promise<Upstream> {
  const content = benchText(o.chunks * o.chunkChars);
  const pacedContent = benchText(o.burstChunks * o.chunkChars);
  const cfg: MockConfig = {
    port: await freePort(),
    content,
    pacedContent,
    paced: PACED,
    soak: SOAK,
    soakContent: benchText(SOAK_CHARS),
    chunkChars: o.chunkChars,
    ttftMs: o.ttftMs,
    chunkMs: o.chunkMs,
    burstChunkMs: o.burstChunkMs,
  };
  const child = spawnGroup(["--import", "tsx", path.join(import.meta.dirname, "aimock-process.ts"), JSON.stringify(cfg)], {
    cwd: root,
    stdio: ["ignore", "pipe", "inherit"],
  });
  onCleanup(() => killGroup(child));
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    const t = setTimeout(() => reject(new Error("aimock did not start in 15 s")), 15_000);
    child.stdout!.on("data", (d: Buffer) => {
      out += d;
      const line = out.split("\n").find((l) => l.startsWith("{"));
      if (line) {
        clearTimeout(t);
        resolve((JSON.parse(line) as { url: string }).url);
      }
    });
    child.once("exit", (code) => reject(new Error(`aimock exited (${code}) before it started`)));
  });
  child.stdout!.resume();
  return {
    url: url.replace(/\/+$/, ""),
    pid: child.pid!,
    expectedChunks: Math.ceil(content.length / o.chunkChars),
    expectedChars: content.length,
    pacedChunks: Math.ceil(pacedContent.length / o.chunkChars),
    pacedChars: pacedContent.length,
    seen: 0,
  };
}

interface JournalEntry {
  timestamp: number;
  body?: { messages?: { role: string; content: unknown }[]; __aimock_truncated?: boolean };
}

/** When the upstream received each request since the last call, by the text of its last user message (or truncatedKey). */
export async function upstreamArrivals(up: Upstream): Promise<Map<string, number>> {
  const res = await request("GET", `${up.url}/__aimock/journal?offset=${up.seen}`, { timeoutMs: 60_000 });
  const entries = JSON.parse(res.text) as JournalEntry[];
  up.seen += entries.length;
  const out = new Map<string, number>();
  let truncated = 0;
  for (const e of entries) {
    if (e.body?.__aimock_truncated) out.set(truncatedKey(truncated++), e.timestamp);
    const messages = e.body?.messages;
    if (!Array.isArray(messages)) continue;
    const user = messages.filter((m) => m.role === "user").at(-1);
    const c = user?.content;
    const text = typeof c === "string" ? c : Array.isArray(c) ? c.map((p: { text?: string }) => p.text ?? "").join("") : "";
    out.set(text.trim(), e.timestamp);
  }
  return out;
}

/**
 * The k-th request of one journal read whose body aimock did not keep (over its 64 KB cap, as a long
 * chat's history is): its text is gone, its order and time are not.
 */
export const truncatedKey = (k: number) => `truncated#${k}`;

/** Milliseconds from sending each request until the upstream received the model call. */
export function attachArrivals(results: StreamResult[], labels: string[], arrivals: Map<string, number>): void {
  results.forEach((r, i) => {
    const at = arrivals.get(`bench ${labels[i]}`);
    r.toUpstream = at !== undefined && r.sentEpoch ? at - r.sentEpoch : NaN;
  });
}

/** One answer read straight from the upstream (the baseline). */
export function directStream(up: Upstream, label: string, opts?: StreamOptions): Promise<StreamResult> {
  return streamSse(
    `${up.url}/v1/chat/completions`,
    { model: MODEL, messages: [{ role: "user", content: `bench ${label}` }], stream: true, stream_options: { include_usage: true } },
    { authorization: `Bearer ${API_KEY}` },
    (ev) => {
      const error = ev.error as { message?: string } | undefined;
      if (error) throw new Error(error.message ?? "upstream error");
      const c = (ev.choices as { delta?: { content?: unknown } }[] | undefined)?.[0]?.delta?.content;
      return typeof c === "string" && c.length ? c : undefined;
    },
    opts,
  );
}
