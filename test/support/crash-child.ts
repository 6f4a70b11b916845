// Test helper run as a child process (tsx) by recovery.test.ts: starts the app on PARLEY_DATA_DIR,
// runs one slow turn against UPSTREAM_URL and reports each streamed text length on stdout, until the
// parent kills it with SIGKILL mid-turn. Not imported by the app.
import { ready } from "@/lib/startup";
import { runTurn } from "@/lib/turn/turn";
import { parseSse, startUpstream, teamWithProvider } from "./test-turns";

async function main() {
  await ready();
  const upstream = await startUpstream({ chunkSize: 5 });
  // The same answer as recovery.test.ts expects.
  const text = Array.from({ length: 400 }, (_, i) => `t${i}`).join(" ");
  upstream.onMessage("crash test", { content: text }, { latency: 15 });
  const { ctx, chat } = await teamWithProvider(upstream.url, "openai_chat");
  process.stdout.write(`CHAT ${chat.id}\n`);
  const { response: res } = await runTurn(async () => ({ ctx, request: { chatId: chat.id, text: "crash test" } }));
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  let streamed = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += value;
    const events = buffer.split("\n\n");
    buffer = events.pop() ?? "";
    for (const c of parseSse(events.join("\n\n"))) if (c.type === "text-delta") streamed += c.delta as string;
    process.stdout.write(`STREAMED ${Date.now()} ${streamed.length}\n`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
