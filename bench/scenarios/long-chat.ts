// Scenario "long": a chat with a long history (PostgreSQL only: its rows are written straight into the
// database): the newest page of messages, the server-rendered chat page, and a turn in it (the newest
// history that fits the model's context is read and sent), each against the same request in a new chat.
import { performance } from "node:perf_hooks";
import type { Reply, StreamResult } from "../harness/http";
import { log, sleep } from "../harness/lifecycle";
import { createChats, get, parleyStream } from "../harness/parley";
import type { Ctx, LongChatFigures, Session } from "./context";
import { percentile } from "./stats";

/** Characters of text in each earlier message of the long chat. */
export const LONG_CHAT_CHARS = 400;

async function timed(n: number, fn: (i: number) => Promise<Reply | StreamResult>): Promise<number> {
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const r = await fn(i);
    if ("text" in r && r.status !== 200) throw new Error(`long chat: HTTP ${r.status} ${r.text.slice(0, 200)}`);
    if ("ttft" in r) {
      if (r.error) throw new Error(`long chat: a turn failed: ${r.error}`);
      ms.push(r.ttft);
    } else {
      ms.push(performance.now() - t);
    }
  }
  return percentile(ms, 0.5);
}

export async function longChatScenario(ctx: Ctx, s: Session): Promise<LongChatFigures | undefined> {
  const { o } = ctx;
  if (!s.observer || o.longMessages <= 0) return undefined;
  const { server, observer } = s;
  const [long, fresh] = await createChats(server, 2);
  log(`${s.target} ${s.kind}: long chat of ${o.longMessages} messages`);
  await observer.seedChat(long, o.longMessages, LONG_CHAT_CHARS);
  const rows: LongChatFigures["rows"] = [];
  for (const [what, url] of [
    ["newest page of messages (GET /api/chat/[id]/messages)", (id: string) => `/api/chat/${id}/messages`],
    ["chat page, server-rendered (GET /chat/[id])", (id: string) => `/chat/${id}`],
  ] as const) {
    rows.push({ what, fresh: await timed(10, () => get(server, url(fresh))), long: await timed(10, () => get(server, url(long))) });
  }
  // Turns: each adds a question and an answer, so both chats keep their size within a few messages.
  // The pause lets the last turn finish storing.
  const turn = (chat: string, label: string) => (i: number) => sleep(300).then(() => parleyStream(server, o.acceptEncoding, chat, `${label} ${i}`));
  rows.push({ what: "turn: time to first chunk", fresh: await timed(3, turn(fresh, "long fresh")), long: await timed(3, turn(long, "long")) });
  return { messages: o.longMessages, chars: LONG_CHAT_CHARS, rows };
}
