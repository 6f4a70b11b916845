// The event stream of a turn as bytes for the response, in fewer socket writes than events; for a
// turn's own response, it also records the stream for readers who resume it (stream-registry.ts).
import { UI_MESSAGE_STREAM_HEADERS } from "ai";

/** A turn's stream as it is written, for readers that resume it (`resumeExistingStream`) here or elsewhere. */
export type LiveRecord = {
  /** Keeps the text for readers to come and sends it to those following now. */
  append(text: string): void;
  /** The stream has ended: readers following get its end; a later resume finds it done. */
  end(): Promise<void>;
};

/**
 * A turn's stream's headers. `no-transform` keeps Next's gzip off the event stream: compressing it
 * flushed zlib on every chunk (~0.1 ms CPU each) and held chunks back under load (npm run bench measured it).
 */
export const STREAM_HEADERS = { ...UI_MESSAGE_STREAM_HEADERS, "cache-control": "no-cache, no-transform" };

/** One chunk as a server-sent event. */
export const sseEvent = (chunk: unknown) => `data: ${JSON.stringify(chunk)}\n\n`;

/** The longest a server-sent event waits to share a write with the events after it (one display frame). */
export const SSE_WINDOW_MS = 16;

/** An event that carries text the person reads (the first one is never held back). */
const TEXT_EVENT = /"type":"(text|reasoning)-delta"/;

/**
 * The event stream as bytes for the response: every event goes out at once until the answer's first
 * text has, and after that at most one write per `windowMs`: an event after a quiet spell goes out at
 * once, the events that follow within the window go out together when it ends. Every write costs a
 * system call and a trip through Next's response stream (a quarter of the server's CPU in a profile
 * of a fast stream, npm run bench), and a server that falls behind catches up in fewer, larger writes
 * instead of one per token.
 *
 * With `live`, every event is recorded as it is read, and the source is read to its end even when the
 * browser goes away: the turn belongs to the server, and others may be following it.
 */
export function sseBytes(
  text: ReadableStream<string>,
  { windowMs = SSE_WINDOW_MS, live }: { windowMs?: number; live?: LiveRecord } = {},
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const reader = text.getReader();
  let buffered = "";
  let lastWrite = -Infinity;
  let textSent = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const write = () => {
        timer = undefined;
        if (!buffered || closed) return;
        controller.enqueue(encoder.encode(buffered));
        textSent ||= TEXT_EVENT.test(buffered);
        buffered = "";
        lastWrite = performance.now();
      };
      void (async () => {
        try {
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            live?.append(value);
            if (closed) continue;
            buffered += value;
            if (timer) continue;
            const wait = textSent ? lastWrite + windowMs - performance.now() : 0;
            if (wait <= 0) write();
            else timer = setTimeout(write, wait);
          }
          clearTimeout(timer);
          write();
          if (!closed) controller.close();
        } catch (err) {
          clearTimeout(timer);
          if (!closed) controller.error(err);
        }
        closed = true;
        await live?.end();
      })();
    },
    cancel(reason) {
      closed = true;
      clearTimeout(timer);
      if (!live) return reader.cancel(reason);
    },
  });
}
