// Scenario "long": long chats and many chats (PostgreSQL only: their rows are written straight into
// the database). A chat with a long history (--long-messages): the newest page of messages, the
// server-rendered chat page, and a turn in it (the newest history that fits the model's context is
// read and sent): how long until the model is called, and the first chunk; each against the same
// request in a new chat. Then the member gets --many-chats more chats: the app's first page and the
// chat list's first page, against the same requests before.
import { performance } from "node:perf_hooks";
import type { Reply, StreamResult } from "../harness/http";
import { log, sleep } from "../harness/lifecycle";
import { createChats, get, parleyStream } from "../harness/parley";
import { attachArrivals, truncatedKey, upstreamArrivals } from "../harness/upstream";
import type { Ctx, LongChatFigures, Session } from "./context";
import { percentile } from "./stats";

/** Characters of text in each earlier message of the long chat. */
export const LONG_CHAT_CHARS = 400;

async function timed(n: number, fn: (i: number) => Promise<Reply>): Promise<number> {
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const r = await fn(i);
    if (r.status !== 200) throw new Error(`long chat: HTTP ${r.status} ${r.text.slice(0, 200)}`);
    ms.push(performance.now() - t);
  }
  return percentile(ms, 0.5);
}

/** Turns in a chat, one at a time; each adds a question and an answer, so the chat keeps its size within a few messages. */
async function turns(ctx: Ctx, s: Session, chat: string, label: string, n: number): Promise<StreamResult[]> {
  const out: StreamResult[] = [];
  for (let i = 0; i < n; i++) {
    await sleep(300); // the last turn finishes storing
    const r = await parleyStream(s.server, ctx.o.acceptEncoding, chat, `${label} ${i}`);
    if (r.error) throw new Error(`long chat: a turn failed: ${r.error}`);
    out.push(r);
  }
  return out;
}

export async function longChatScenario(ctx: Ctx, s: Session): Promise<LongChatFigures | undefined> {
  const { o, up } = ctx;
  if (!s.observer || (o.longMessages <= 0 && o.manyChats <= 0)) return undefined;
  const { server, observer } = s;
  const [long, fresh] = await createChats(server, 2);
  const rows: LongChatFigures["rows"] = [];
  if (o.longMessages > 0) {
    log(`${s.target} ${s.kind}: long chat of ${o.longMessages} messages`);
    await observer.seedChat(long, o.longMessages, LONG_CHAT_CHARS);
    for (const [what, url] of [
      ["newest page of messages (GET /api/chat/[id]/messages)", (id: string) => `/api/chat/${id}/messages`],
      ["chat page, server-rendered (GET /chat/[id])", (id: string) => `/chat/${id}`],
    ] as const) {
      rows.push({ what, fresh: await timed(10, () => get(server, url(fresh))), long: await timed(10, () => get(server, url(long))) });
    }
    await upstreamArrivals(up);
    const [f, l] = [await turns(ctx, s, fresh, "long fresh", 5), await turns(ctx, s, long, "long", 5)];
    const arrivals = await upstreamArrivals(up);
    attachArrivals(
      f,
      [0, 1, 2, 3, 4].map((i) => `long fresh ${i}`),
      arrivals,
    );
    attachArrivals(
      l,
      [0, 1, 2, 3, 4].map((i) => `long ${i}`),
      arrivals,
    );
    // The long chat's requests are over the journal's body cap: the only truncated ones, in order.
    l.forEach((r, i) => {
      const at = arrivals.get(truncatedKey(i));
      if (!Number.isFinite(r.toUpstream) && at !== undefined && r.sentEpoch) r.toUpstream = at - r.sentEpoch;
    });
    const p50 = (r: StreamResult[], k: "toUpstream" | "ttft") => percentile(r.map((x) => x[k] ?? NaN).filter(Number.isFinite), 0.5);
    rows.push({ what: "turn: request sent -> the model is called", fresh: p50(f, "toUpstream"), long: p50(l, "toUpstream") });
    rows.push({ what: "turn: time to first chunk", fresh: p50(f, "ttft"), long: p50(l, "ttft") });
  }
  const manyRows: LongChatFigures["manyRows"] = [];
  if (o.manyChats > 0) {
    const pages = [
      ["the app (GET /chat, server-rendered with the chat list)", "/chat"],
      ["the chat list's first page (GET /api/chats)", "/api/chats"],
    ] as const;
    const before: number[] = [];
    for (const [, url] of pages) before.push(await timed(10, () => get(server, url)));
    log(`${s.target} ${s.kind}: ${o.manyChats} more chats for the member`);
    await observer.seedChats(long, o.manyChats);
    for (const [i, [what, url]] of pages.entries()) manyRows.push({ what, fresh: before[i], long: await timed(10, () => get(server, url)) });
  }
  return { messages: o.longMessages, chars: LONG_CHAT_CHARS, rows, chats: o.manyChats, manyRows };
}
