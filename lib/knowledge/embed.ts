// Embeddings of knowledge passages and of a question, from the embedding model a knowledge base names
// on one of its team's providers (OpenAI's `/v1/embeddings`, which Ollama, vLLM and other
// OpenAI-compatible servers serve too). Texts go in batches, each with a time limit; the AI SDK does not
// retry (the indexing job does, later, for failures that may pass). Every failure is an EmbeddingError
// whose message a person can read on the document, and which says whether trying again may help.
import { APICallError } from "@ai-sdk/provider";
import { embedMany, RetryError } from "ai";
import { AppError } from "../errors";
import { embeddingModel, type ProviderCredentials } from "../providers/model-factory";
import { upstreamDetail } from "../providers/upstream-detail";

/** The embedding model of a knowledge base: the provider, the model's id and the size its vectors must have. */
export type EmbeddingTarget = { provider: ProviderCredentials; modelId: string; dimensions: number };

/** Why embedding failed: the server could not be reached or did not answer in time, refused, or sent vectors of another size. */
export type EmbeddingFailure = "unreachable" | "timeout" | "refused" | "wrong-size";

export class EmbeddingError extends Error {
  constructor(
    readonly reason: EmbeddingFailure,
    message: string,
    /** Whether the same request may succeed later (a server that is down, busy or slow). */
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = "EmbeddingError";
  }
}

/** Texts per request: below what OpenAI (2,048) and the OpenAI-compatible servers take at once. */
export const EMBED_BATCH = 64;
/** How long one batch may take before it counts as a server that stopped answering. */
export const EMBED_TIMEOUT_MS = 60_000;

type EmbedOptions = { signal?: AbortSignal; batchSize?: number; timeoutMs?: number; fetchImpl?: typeof fetch };

/** The embeddings of `texts`, in their order, and the tokens the provider counted for them. */
export async function embedTexts(target: EmbeddingTarget, texts: string[], options: EmbedOptions = {}): Promise<{ embeddings: number[][]; tokens: number }> {
  const model = modelOf(target, options.fetchImpl);
  const size = options.batchSize ?? EMBED_BATCH;
  const embeddings: number[][] = [];
  let tokens = 0;
  for (let i = 0; i < texts.length; i += size) {
    const timeout = AbortSignal.timeout(options.timeoutMs ?? EMBED_TIMEOUT_MS);
    const abortSignal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    const batch = await embedMany({ model, values: texts.slice(i, i + size), maxRetries: 0, abortSignal }).catch((err: unknown) => {
      if (options.signal?.aborted) throw err; // the caller stopped: not the server's failure
      throw embeddingError(err, target, timeout.aborted);
    });
    for (const e of batch.embeddings) {
      if (e.length !== target.dimensions) {
        throw new EmbeddingError(
          "wrong-size",
          `The embedding model ${target.modelId} gives vectors of ${e.length} numbers; this knowledge base stores ${target.dimensions}. Pick a model of that size, or make a new knowledge base for this one.`,
          false,
        );
      }
      embeddings.push(e);
    }
    tokens += batch.usage?.tokens ?? 0;
  }
  return { embeddings, tokens };
}

/** The embedding of one question (for a search). */
export async function embedQuery(target: EmbeddingTarget, text: string, options: EmbedOptions = {}): Promise<number[]> {
  const { embeddings } = await embedTexts(target, [text], options);
  return embeddings[0];
}

/** The provider's embedding model; a provider that has none is a refusal for good. */
function modelOf(target: EmbeddingTarget, fetchImpl?: typeof fetch) {
  try {
    return embeddingModel(target.provider, target.modelId, ...(fetchImpl ? [fetchImpl] : []));
  } catch (err) {
    throw embeddingError(err, target, false);
  }
}

function embeddingError(err: unknown, target: EmbeddingTarget, timedOut: boolean): Error {
  if (RetryError.isInstance(err)) return embeddingError(err.lastError, target, timedOut);
  if (err instanceof AppError) return new EmbeddingError("refused", err.message, false);
  const where = `the embedding model ${target.modelId} on ${target.provider.name}`;
  if (timedOut) return new EmbeddingError("timeout", `No answer from ${where} within ${EMBED_TIMEOUT_MS / 1000} s. Indexing tries again later.`, true);
  if (APICallError.isInstance(err) && err.statusCode !== undefined) {
    const status = err.statusCode;
    const busy = status === 429 || status >= 500;
    return new EmbeddingError(
      busy ? "unreachable" : "refused",
      `${busy ? "The provider could not embed the text now" : "The provider refused to embed the text"} (HTTP ${status}, ${where}): ${upstreamDetail(err)}${busy ? " Indexing tries again later." : ""}`,
      busy,
    );
  }
  return new EmbeddingError(
    "unreachable",
    `Could not reach ${where}: ${(err as Error | undefined)?.message ?? String(err)}. Indexing tries again later.`,
    true,
  );
}
