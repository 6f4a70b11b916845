// The store's feed holds a turn back when the store falls behind, so what the browser has seen is
// never more than a few chunks ahead of what is stored; a store that stops reading releases the turn.
import type { UIMessageChunk } from "ai";
import { describe, expect, it } from "vitest";
import { storeFeed } from "./store-feed";

const delta = (i: number): UIMessageChunk => ({ type: "text-delta", id: "t", delta: `${i} ` });
const settled = async (p: Promise<void> | undefined) => {
  if (!p) return true;
  let done = false;
  void p.then(() => (done = true));
  await new Promise((r) => setImmediate(r));
  return done;
};

describe("store feed", () => {
  it("lets the turn run ahead of the store by at most maxLag chunks", async () => {
    const feed = storeFeed(4);
    const reader = feed.readable.getReader();
    const writes = [0, 1, 2].map((i) => feed.write(delta(i)));
    expect(writes).toEqual([undefined, undefined, undefined]);
    const fourth = feed.write(delta(3));
    expect(fourth).toBeInstanceOf(Promise);
    expect(await settled(fourth)).toBe(false);
    // The store reads one chunk: the turn may go on.
    expect((await reader.read()).value).toEqual(delta(0));
    expect(await settled(fourth)).toBe(true);
  });

  it("records how the turn ended and hands every chunk over in order", async () => {
    const feed = storeFeed();
    const chunks: UIMessageChunk[] = [{ type: "start" }, delta(1), { type: "abort" }, { type: "finish" }];
    for (const c of chunks) feed.write(c);
    feed.close();
    const read: UIMessageChunk[] = [];
    for (const reader = feed.readable.getReader(); ; ) {
      const r = await reader.read();
      if (r.done) break;
      read.push(r.value);
    }
    expect(read).toEqual(chunks);
    expect(feed.ending).toBe("abort");
  });

  it("releases a held turn when the store gives up reading, and ignores later chunks", async () => {
    const feed = storeFeed(1);
    const held = feed.write(delta(0));
    expect(await settled(held)).toBe(false);
    await feed.readable.cancel("store failed");
    expect(await settled(held)).toBe(true);
    expect(feed.write(delta(1))).toBeUndefined();
  });

  it("passes a failure of the turn's stream on to the store", async () => {
    const feed = storeFeed();
    const reader = feed.readable.getReader();
    feed.fail(new Error("upstream broke"));
    await expect(reader.read()).rejects.toThrow("upstream broke");
  });
});
