// sseBytes: events go out at once until the first text has, then the events right after a write share
// the next one; nothing is lost or reordered at the end, and a reader that goes away cancels the source
// unless the stream is recorded for others (a turn's own response), which is then read to its end.
import { describe, expect, it } from "vitest";
import { sseBytes } from "./sse-bytes";
import { buildRegistry } from "../turn/stream-registry";

function source() {
  let controller!: ReadableStreamDefaultController<string>;
  let cancelled: unknown = "not cancelled";
  const stream = new ReadableStream<string>({
    start: (c) => void (controller = c),
    cancel: (reason) => void (cancelled = reason),
  });
  return { stream, controller, cancelled: () => cancelled };
}

const event = (chunk: object) => `data: ${JSON.stringify(chunk)}\n\n`;
const START = event({ type: "start", messageId: "m1" });
const STEP = event({ type: "start-step" });
const text = (delta: string) => event({ type: "text-delta", id: "t1", delta });
const decoder = new TextDecoder();
const readText = async (reader: ReadableStreamDefaultReader<Uint8Array>) => {
  const { done, value } = await reader.read();
  return done ? undefined : decoder.decode(value);
};

describe("sseBytes", () => {
  it("sends every event at once until the first text has gone (a minute's window would time the test out)", async () => {
    const src = source();
    const reader = sseBytes(src.stream, { windowMs: 60_000 }).getReader();
    for (const e of [START, STEP, text("Once")]) {
      src.controller.enqueue(e);
      expect(await readText(reader)).toBe(e);
    }
  });

  it("after the first text, sends the events that follow within the window in one write", async () => {
    const src = source();
    const reader = sseBytes(src.stream, { windowMs: 50 }).getReader();
    src.controller.enqueue(START);
    expect(await readText(reader)).toBe(START);
    src.controller.enqueue(text("Once"));
    expect(await readText(reader)).toBe(text("Once"));
    for (const word of [" upon", " a", " time"]) src.controller.enqueue(text(word));
    expect(await readText(reader)).toBe(text(" upon") + text(" a") + text(" time"));
  });

  it("sends what is held when the source ends within the window, then ends", async () => {
    const src = source();
    const reader = sseBytes(src.stream, { windowMs: 10_000 }).getReader();
    src.controller.enqueue(text("a"));
    expect(await readText(reader)).toBe(text("a"));
    src.controller.enqueue(text("b"));
    src.controller.enqueue(text("c"));
    src.controller.close();
    // The window is ten seconds: the end of the source, not the timer, sends both.
    expect(await readText(reader)).toBe(text("b") + text("c"));
    expect(await readText(reader)).toBeUndefined();
  });

  it("passes an error of the source on after what came before it", async () => {
    const src = source();
    const reader = sseBytes(src.stream, { windowMs: 10_000 }).getReader();
    src.controller.enqueue("a");
    expect(await readText(reader)).toBe("a");
    src.controller.error(new Error("upstream gone"));
    await expect(reader.read()).rejects.toThrow("upstream gone");
  });

  it("cancels the source when the response is cancelled (the browser went away)", async () => {
    const src = source();
    const reader = sseBytes(src.stream, { windowMs: 10_000 }).getReader();
    src.controller.enqueue("a");
    expect(await readText(reader)).toBe("a");
    await reader.cancel("gone");
    expect(src.cancelled()).toBe("gone");
  });

  it("with a live record, keeps reading after the browser goes away: a reader who resumes gets the whole stream and its end", async () => {
    const registry = await buildRegistry("");
    const src = source();
    const reader = sseBytes(src.stream, { windowMs: 10_000, live: await registry.record("s1") }).getReader();
    src.controller.enqueue(START);
    expect(await readText(reader)).toBe(START);
    await reader.cancel("tab closed");
    expect(src.cancelled()).toBe("not cancelled");
    src.controller.enqueue(text("still "));
    const resumed = (await registry.streams.resumeExistingStream("s1"))!.getReader();
    let seen = "";
    const r1 = await resumed.read();
    seen += r1.value;
    expect(seen).toBe(START + text("still "));
    src.controller.enqueue(text("going"));
    src.controller.close();
    for (;;) {
      const { done, value } = await resumed.read();
      if (done) break;
      seen += value;
    }
    expect(seen).toBe(START + text("still ") + text("going"));
    expect(await registry.streams.resumeExistingStream("s1")).toBeNull(); // ended
  });
});
