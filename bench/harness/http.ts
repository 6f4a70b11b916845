// HTTP for the harness: one keep-alive agent, plain requests, and an SSE client that reads a
// streamed answer and timestamps every text chunk (what a browser would show, and when).
import http from "node:http";
import { performance } from "node:perf_hooks";
import zlib from "node:zlib";
import { errorText } from "./lifecycle";

const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity, maxFreeSockets: 1024 });

export interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

export function request(
  method: string,
  url: string,
  { body, headers = {}, timeoutMs = 30_000 }: { body?: unknown; headers?: Record<string, string>; timeoutMs?: number } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const payload = body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body);
    const req = http.request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname + u.search,
        method,
        agent,
        headers: { ...(payload !== undefined ? { "content-type": "application/json", "content-length": Buffer.byteLength(payload) } : {}), ...headers },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (d: string) => (text += d));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
        res.on("error", reject);
      },
    );
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`${method} ${u.pathname}: no answer in ${timeoutMs} ms`)));
    req.on("error", reject);
    req.end(payload);
  });
}

/** One streamed answer as the harness saw it. Times in ms from just before the request was sent. */
export interface StreamResult {
  status: number;
  encoding?: string;
  ttft: number;
  total: number;
  firstAt: number;
  lastAt: number;
  chunks: number;
  chars: number;
  firstChars: number;
  sentEpoch: number;
  cut: boolean;
  error?: string;
  /** Request sent -> the upstream received the model call (from aimock's journal), attached later. */
  toUpstream?: number;
}

/** Characters received and streams that had text, shared by a burst's streams for readings mid-burst. */
export interface Progress {
  chars: number;
  streams: number;
}

export interface StreamOptions {
  /** Cuts the stream (the result then has `cut: true`). */
  signal?: AbortSignal;
  /** Runs when the response starts. */
  onHeaders?: (status: number) => unknown;
  progress?: Progress;
  /** A connection of its own (with several server processes, the next process in turn). */
  fresh?: boolean;
  timeoutMs?: number;
}

/** Returns the text of a text chunk (else undefined); throws to report an error event. */
export type TextOf = (event: Record<string, unknown>) => string | undefined;

const DECODERS: Partial<Record<string, () => zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress>> = {
  gzip: zlib.createGunzip,
  deflate: zlib.createInflate,
  br: zlib.createBrotliDecompress,
};

/** POSTs JSON and reads an SSE answer. Never rejects: failures are in `error`. */
export function streamSse(url: string, payload: unknown, headers: Record<string, string>, textOf: TextOf, opts: StreamOptions = {}): Promise<StreamResult> {
  const { signal, onHeaders, progress, fresh, timeoutMs = 180_000 } = opts;
  return new Promise((resolve) => {
    const u = new URL(url);
    const body = JSON.stringify(payload);
    const r: StreamResult = { status: 0, ttft: NaN, total: NaN, firstAt: NaN, lastAt: NaN, chunks: 0, chars: 0, firstChars: 0, sentEpoch: 0, cut: false };
    let done = false;
    let t0 = 0;
    const finish = (error?: string) => {
      if (done) return;
      done = true;
      r.total = performance.now() - t0;
      if (error && !r.error) r.error = error;
      clearTimeout(timer);
      resolve(r);
    };
    const onText = (text: string) => {
      const now = performance.now();
      if (!r.chunks) {
        r.firstAt = now;
        r.ttft = now - t0;
        r.firstChars = text.length;
        if (progress) progress.streams++;
      }
      r.lastAt = now;
      r.chunks++;
      r.chars += text.length;
      if (progress) progress.chars += text.length;
    };
    const req = http.request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        method: "POST",
        agent: fresh ? false : agent,
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body), accept: "text/event-stream", ...headers },
      },
      (res) => {
        r.status = res.statusCode ?? 0;
        const encoding = String(res.headers["content-encoding"] ?? "identity");
        r.encoding = encoding;
        onHeaders?.(r.status);
        const decode = DECODERS[encoding];
        const src = decode ? res.pipe(decode()) : res;
        if (decode) src.on("error", (e: Error) => finish(r.cut ? undefined : e.message));
        src.setEncoding("utf8");
        let buf = "";
        if (r.status !== 200) {
          src.on("data", (d: string) => (buf += d));
          src.on("end", () => finish(`HTTP ${r.status}: ${buf.slice(0, 300)}`));
          res.on("error", (e) => finish(e.message));
          return;
        }
        src.on("data", (d: string) => {
          buf += d;
          let i;
          while ((i = buf.indexOf("\n\n")) >= 0) {
            const event = buf.slice(0, i);
            buf = buf.slice(i + 2);
            for (const line of event.split("\n")) {
              if (!line.startsWith("data:")) continue;
              const data = line.slice(5).trimStart();
              if (data === "[DONE]") continue;
              let text: string | undefined;
              try {
                text = textOf(JSON.parse(data));
              } catch (err) {
                r.error ??= errorText(err).slice(0, 300);
                continue;
              }
              if (text) onText(text);
            }
          }
        });
        src.on("end", () => finish());
        res.on("error", (e) => finish(r.cut ? undefined : e.message));
        res.on("aborted", () => finish(r.cut ? undefined : "connection aborted"));
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      finish(`no end after ${timeoutMs} ms`);
    }, timeoutMs);
    signal?.addEventListener(
      "abort",
      () => {
        r.cut = true;
        req.destroy();
        finish();
      },
      { once: true },
    );
    req.on("error", (e) => finish(r.cut ? undefined : e.message));
    t0 = performance.now();
    r.sentEpoch = Date.now();
    req.end(body);
  });
}

/**
 * Characters per second between a stream's first and last text chunk (the first chunk's characters
 * arrived at the start of that span, so they do not count). Characters, not chunks: Parley may merge
 * deltas that arrive together into one chunk, which changes the count but not the text.
 */
export const rateOf = (r: StreamResult) => (r.chunks > 1 && r.lastAt > r.firstAt ? ((r.chars - r.firstChars) * 1000) / (r.lastAt - r.firstAt) : NaN);
