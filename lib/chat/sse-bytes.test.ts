// sseBytes: the first event goes out at once, the events right after it share one write, nothing is
// lost or reordered at the end, and a reader that goes away cancels the source.
import { describe, expect, it } from "vitest";
import { sseBytes } from "./sse-bytes";

function source() {
  let controller!: ReadableStreamDefaultController<string>;
  let cancelled: unknown = "not cancelled";
  const stream = new ReadableStream<string>({
    start: (c) => void (controller = c),
    cancel: (reason) => void (cancelled = reason),
  });
  return { stream, controller, cancelled: () => cancelled };
}

const decoder = new TextDecoder();
const readText = async (reader: ReadableStreamDefaultReader<Uint8Array>) => {
  const { done, value } = await reader.read();
  return done ? undefined : decoder.decode(value);
};

describe("sseBytes", () => {
  it("sends the first event at once (a minute's window would time the test out if it were held)", async () => {
    const src = source();
    const reader = sseBytes(src.stream, 60_000).getReader();
    src.controller.enqueue("data: 1\n\n");
    expect(await readText(reader)).toBe("data: 1\n\n");
  });

  it("sends the events that follow within the window in one write", async () => {
    const src = source();
    const reader = sseBytes(src.stream, 50).getReader();
    src.controller.enqueue("data: 1\n\n");
    expect(await readText(reader)).toBe("data: 1\n\n");
    for (const n of [2, 3, 4]) src.controller.enqueue(`data: ${n}\n\n`);
    expect(await readText(reader)).toBe("data: 2\n\ndata: 3\n\ndata: 4\n\n");
  });

  it("sends what is held when the source ends within the window, then ends", async () => {
    const src = source();
    const reader = sseBytes(src.stream, 10_000).getReader();
    src.controller.enqueue("a");
    expect(await readText(reader)).toBe("a");
    src.controller.enqueue("b");
    src.controller.enqueue("c");
    src.controller.close();
    // The window is ten seconds: the end of the source, not the timer, sends "bc".
    expect(await readText(reader)).toBe("bc");
    expect(await readText(reader)).toBeUndefined();
  });

  it("passes an error of the source on after what came before it", async () => {
    const src = source();
    const reader = sseBytes(src.stream, 10_000).getReader();
    src.controller.enqueue("a");
    expect(await readText(reader)).toBe("a");
    src.controller.error(new Error("upstream gone"));
    await expect(reader.read()).rejects.toThrow("upstream gone");
  });

  it("cancels the source when the response is cancelled (the browser went away)", async () => {
    const src = source();
    const reader = sseBytes(src.stream, 10_000).getReader();
    src.controller.enqueue("a");
    expect(await readText(reader)).toBe("a");
    await reader.cancel("gone");
    expect(src.cancelled()).toBe("gone");
  });
});
