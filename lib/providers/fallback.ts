// A model that falls back to another once: when the primary provider fails before its first token
// (cannot connect, answers 5xx, or times out), the same call goes to the fallback model and every later
// step of the turn stays there. Errors after content has streamed, 4xx answers (a wrong key, a bad
// request) and a stop by the user are not retried: they show as they are. Stream parts that carry no
// answer (stream-start, response-metadata, Anthropic's `custom` message_start, `ping`) are held back
// until the first content. A model of the current spec (V4): `ai` would otherwise convert the prompt
// to V3 for this wrapper, and the V4 providers inside cannot read V3 file parts.
import { APICallError, type LanguageModelV4, type LanguageModelV4CallOptions, type LanguageModelV4StreamPart } from "@ai-sdk/provider";

const CONTENT = new Set<LanguageModelV4StreamPart["type"]>([
  "text-start",
  "text-delta",
  "reasoning-start",
  "reasoning-delta",
  "reasoning-file",
  "tool-input-start",
  "tool-call",
  "tool-result",
  "source",
  "file",
  "finish",
]);

/** Whether an error means the provider did not serve the call at all (worth one try elsewhere). */
function isFallbackWorthy(err: unknown): boolean {
  if (APICallError.isInstance(err)) return err.statusCode === undefined || err.statusCode >= 500 || err.statusCode === 408;
  const e = err as { name?: string; code?: string; cause?: { code?: string } } | undefined;
  if (e?.name === "TimeoutError") return true;
  const code = e?.code ?? e?.cause?.code;
  return typeof code === "string" && /^(ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|UND_ERR_)/.test(code);
}

export function withFallback(primary: LanguageModelV4, fallback: LanguageModelV4, onFallback: (err: unknown) => void): LanguageModelV4 {
  let current = primary;
  let switched = false;

  async function switchAfter(err: unknown, options: LanguageModelV4CallOptions) {
    if (switched || options.abortSignal?.aborted || !isFallbackWorthy(err)) throw err;
    switched = true;
    current = fallback;
    onFallback(err);
    return fallback.doStream(options);
  }

  return {
    specificationVersion: "v4",
    get provider() {
      return current.provider;
    },
    get modelId() {
      return current.modelId;
    },
    get supportedUrls() {
      return current.supportedUrls;
    },
    async doGenerate(options) {
      try {
        return await current.doGenerate(options);
      } catch (err) {
        if (switched || options.abortSignal?.aborted || !isFallbackWorthy(err)) throw err;
        switched = true;
        current = fallback;
        onFallback(err);
        return fallback.doGenerate(options);
      }
    },
    async doStream(options) {
      if (switched) return fallback.doStream(options);
      let result: Awaited<ReturnType<LanguageModelV4["doStream"]>>;
      try {
        result = await primary.doStream(options);
      } catch (err) {
        return switchAfter(err, options);
      }
      // Hold back the chunks before the first content: an error among them still falls back.
      const reader = result.stream.getReader();
      const held: LanguageModelV4StreamPart[] = [];
      for (;;) {
        let next: ReadableStreamReadResult<LanguageModelV4StreamPart>;
        try {
          next = await reader.read();
        } catch (err) {
          return switchAfter(err, options);
        }
        if (next.done) break;
        if (next.value.type === "error" && isFallbackWorthy(next.value.error)) {
          reader.cancel().catch(() => {});
          return switchAfter(next.value.error, options);
        }
        held.push(next.value);
        if (CONTENT.has(next.value.type)) break;
      }
      const stream = new ReadableStream<LanguageModelV4StreamPart>({
        start(controller) {
          for (const part of held) controller.enqueue(part);
        },
        async pull(controller) {
          try {
            const next = await reader.read();
            if (next.done) controller.close();
            else controller.enqueue(next.value);
          } catch (err) {
            controller.error(err);
          }
        },
        cancel(reason) {
          return reader.cancel(reason);
        },
      });
      return { ...result, stream };
    },
  };
}
