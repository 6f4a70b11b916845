// Guards a model's streaming calls: the provider must answer and keep sending within `idleMs` (first
// byte and between chunks), and must answer with an event stream. A provider that stalls or sends
// something else ends the call with a clear error, and the HTTP request is cancelled. Parts pass on
// as they come: deltas that arrive together were already merged before the provider parsed them
// (sse-merge.ts).
import type { LanguageModelV4, LanguageModelV4Middleware, LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { wrapLanguageModel } from "ai";

export class ProviderTimeoutError extends Error {
  constructor(ms: number) {
    super(`The model provider stopped answering: nothing for ${ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`}. Try again.`);
    this.name = "TimeoutError";
  }
}

export class ProviderStreamError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InvalidResponseError";
  }
}

function guard(idleMs: number): LanguageModelV4Middleware {
  return {
    specificationVersion: "v4",
    async wrapStream({ params, model }) {
      const cancel = new AbortController();
      const abortSignal = params.abortSignal ? AbortSignal.any([params.abortSignal, cancel.signal]) : cancel.signal;
      let timer: NodeJS.Timeout | undefined;
      const headers = await Promise.race([
        model.doStream({ ...params, abortSignal }),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => {
            cancel.abort();
            reject(new ProviderTimeoutError(idleMs));
          }, idleMs);
        }),
      ]).finally(() => clearTimeout(timer));
      const type = headers.response?.headers?.["content-type"];
      if (type && !type.includes("text/event-stream") && !type.includes("application/x-ndjson")) {
        cancel.abort();
        throw new ProviderStreamError(`The provider answered with ${type.split(";")[0]} instead of an event stream.`);
      }
      // One timer per call, not one per chunk: each chunk only notes its time, and the timer, when it
      // fires, either fails the call or waits out the rest of the window from the last chunk.
      let idle: NodeJS.Timeout | undefined;
      let lastChunkAt = Date.now();
      const stop = () => clearTimeout(idle);
      params.abortSignal?.addEventListener("abort", stop, { once: true });
      const stream = headers.stream.pipeThrough(
        new TransformStream<LanguageModelV4StreamPart, LanguageModelV4StreamPart>({
          start(controller) {
            const check = () => {
              const quiet = Date.now() - lastChunkAt;
              if (quiet < idleMs) {
                idle = setTimeout(check, idleMs - quiet).unref();
                return;
              }
              controller.error(new ProviderTimeoutError(idleMs));
              cancel.abort();
            };
            idle = setTimeout(check, idleMs).unref();
          },
          transform(chunk, controller) {
            lastChunkAt = Date.now();
            controller.enqueue(chunk);
          },
          flush() {
            clearTimeout(idle);
          },
          // @ts-expect-error `cancel` is in the Streams standard but not yet in TypeScript's Transformer type
          cancel() {
            stop();
          },
        }),
      );
      return { ...headers, stream };
    },
  };
}

export function guardStreams(model: LanguageModelV4, idleMs: number): LanguageModelV4 {
  return wrapLanguageModel({ model, middleware: guard(idleMs) });
}
