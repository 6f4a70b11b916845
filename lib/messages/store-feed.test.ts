// The store's feed folds each chunk as the turn passes it on, in order: the store is never behind what
// the browser was sent; a fold that takes a while holds the turn (and the chunks after it) back until it
// is done; a store that fails lets the turn go on without it.
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
  it("folds each chunk when it is written, and the chunks written before the store consumed first", () => {
    const feed = storeFeed();
    const folded: UIMessageChunk[] = [];
    expect(feed.write(delta(0))).toBeUndefined();
    void feed.consume((c) => void folded.push(c));
    expect(folded).toEqual([delta(0)]);
    expect(feed.write(delta(1))).toBeUndefined();
    expect(folded).toEqual([delta(0), delta(1)]);
  });

  it("holds the turn while a fold is asynchronous, and folds the chunks after it in order once it is done", async () => {
    const feed = storeFeed();
    const folded: string[] = [];
    let finish!: () => void;
    void feed.consume((c) => {
      if (c.type === "tool-input-delta") return new Promise<void>((r) => (finish = () => (folded.push("input"), r())));
      folded.push(c.type);
    });
    const held = feed.write({ type: "tool-input-delta", toolCallId: "c1", inputTextDelta: "{" });
    expect(held).toBeInstanceOf(Promise);
    const next = feed.write(delta(1));
    expect(await settled(next)).toBe(false);
    expect(folded).toEqual([]);
    finish();
    expect(await settled(held)).toBe(true);
    expect(folded).toEqual(["input", "text-delta"]);
  });

  it("ends the store once the stream closed and every chunk is folded, and records how the turn ended", async () => {
    const feed = storeFeed();
    const chunks: UIMessageChunk[] = [{ type: "start" }, delta(1), { type: "abort" }, { type: "finish" }];
    const folded: UIMessageChunk[] = [];
    const consumed = feed.consume((c) => void folded.push(c));
    for (const c of chunks) feed.write(c);
    feed.close();
    await consumed;
    expect(folded).toEqual(chunks);
    expect(feed.ending).toBe("abort");
  });

  it("lets a held turn go on when the store fails, and ignores later chunks", async () => {
    const feed = storeFeed();
    const consumed = feed.consume(() => Promise.reject(new Error("fold failed")));
    const held = feed.write(delta(0));
    await expect(consumed).rejects.toThrow("fold failed");
    expect(await settled(held)).toBe(true);
    expect(feed.write(delta(1))).toBeUndefined();
  });

  it("passes a failure of the turn's stream on to the store", async () => {
    const feed = storeFeed();
    const consumed = feed.consume(() => {});
    feed.fail(new Error("upstream broke"));
    await expect(consumed).rejects.toThrow("upstream broke");
  });
});
