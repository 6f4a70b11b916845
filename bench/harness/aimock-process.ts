// The scripted upstream in a process of its own (so its work does not share the harness's event
// loop): aimock with two answers, started by upstream.ts, which reads its URL from the first line.
import { LLMock } from "@copilotkit/aimock";

export interface MockConfig {
  port: number;
  content: string;
  pacedContent: string;
  paced: string;
  soak: string;
  soakContent: string;
  chunkChars: number;
  ttftMs: number;
  chunkMs: number;
  burstChunkMs: number;
}

async function main() {
  const cfg = JSON.parse(process.argv[2] ?? "{}") as MockConfig;
  const mock = new LLMock({ port: cfg.port, host: "127.0.0.1", chunkSize: cfg.chunkChars, logLevel: "silent", journalMaxEntries: 0 });
  // aimock serves the first registered fixture that matches (substring of the last user message), and
  // every prompt contains "bench": so the paced fixture must be registered first, then the soak's.
  mock.onMessage(cfg.paced, { content: cfg.pacedContent }, { streamingProfile: { ttft: cfg.ttftMs, tps: 1000 / cfg.burstChunkMs } });
  mock.onMessage(cfg.soak, { content: cfg.soakContent }, { streamingProfile: { ttft: cfg.ttftMs, tps: 1000 / cfg.chunkMs } });
  mock.onMessage("bench", { content: cfg.content }, { streamingProfile: { ttft: cfg.ttftMs, tps: 1000 / cfg.chunkMs } });
  await mock.start();
  process.stdout.write(JSON.stringify({ url: mock.url }) + "\n");
  const stop = () => void mock.stop().finally(() => process.exit(0));
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

void main();
