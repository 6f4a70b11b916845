// Embedding knowledge passages against a real OpenAI-compatible `/v1/embeddings` (aimock on loopback) and
// against servers that fail the ways embedding servers fail: down, refusing, busy, silent, and giving
// vectors of another size than the knowledge base stores. What a person reads on the document, and
// whether indexing should try again, is asserted for each.
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { LLMock } from "@copilotkit/aimock";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProviderKind } from "../db/generated/client";
import { encryptSecret } from "../security/keyring";
import { DRIVERS, startTestApp } from "@/test/support/test-app";
import { startUpstream } from "@/test/support/test-turns";
import { embedQuery, embedTexts, EmbeddingError, type EmbeddingTarget } from "./embed";

let mock: LLMock;
let stop: () => Promise<void>;
let silent: http.Server;
let silentUrl = "";
/** The size of aimock's vectors: read in the first test from the message of a probe that expected 1. */
let size = 0;

beforeAll(async () => {
  ({ stop } = await startTestApp(DRIVERS[0]));
  mock = await startUpstream();
  // A server that takes the request and never answers.
  silent = http.createServer(() => {});
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
}, 120_000);
afterAll(async () => {
  silent?.closeAllConnections();
  silent?.close();
  await mock?.stop();
  await stop?.();
});

let lastProbe = "";
function sizeFrom(): number {
  return Number(/gives vectors of (\d+) numbers/.exec(lastProbe)?.[1]);
}

function target(upstream: string, dimensions: number, kind: ProviderKind = "openai_compatible"): EmbeddingTarget {
  return {
    provider: { kind, name: "Embedder", baseUrl: `${upstream}/v1`, apiKeyEnc: encryptSecret("sk-test-1234567890"), headersEnc: null },
    modelId: "text-embedding-test",
    dimensions,
  };
}

async function failure(p: Promise<unknown>): Promise<EmbeddingError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof EmbeddingError)) throw new Error(`expected an EmbeddingError, got ${String(err)}`);
  lastProbe = err.message;
  return err;
}

describe("embedding knowledge passages", () => {
  it("gives one vector per text, in order, over as many requests as the batches need, on both provider kinds", async () => {
    const wrong = await failure(embedTexts(target(mock.url, 1), ["probe"]));
    expect(wrong.reason).toBe("wrong-size");
    size = sizeFrom();
    expect(size).toBeGreaterThan(1);

    mock.clearRequests();
    const texts = ["alpha", "beta", "gamma", "delta", "alpha"];
    const { embeddings } = await embedTexts(target(mock.url, size), texts, { batchSize: 2 });
    expect(embeddings).toHaveLength(5);
    for (const e of embeddings) expect(e).toHaveLength(size);
    expect(embeddings[4]).toEqual(embeddings[0]); // the same text, the same vector
    expect(embeddings[1]).not.toEqual(embeddings[0]);
    const sent = mock.getRequests().filter((r) => r.path.endsWith("/embeddings"));
    expect(sent).toHaveLength(3);

    const viaOpenAI = await embedQuery(target(mock.url, size, "openai_chat"), "gamma");
    expect(viaOpenAI).toEqual(embeddings[2]);
  });

  it("a vector of another size than the base stores is refused for good, naming both sizes", async () => {
    const err = await failure(embedTexts(target(mock.url, size + 1), ["alpha"]));
    expect(err.reason).toBe("wrong-size");
    expect(err.retryable).toBe(false);
    expect(err.message).toContain(`vectors of ${size} numbers; this knowledge base stores ${size + 1}`);
  });

  it("a server that is down is retried later, and says which model it could not reach", async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const err = await failure(embedTexts(target(url, size), ["alpha"]));
    expect(err.reason).toBe("unreachable");
    expect(err.retryable).toBe(true);
    expect(err.message).toMatch(/^Could not reach the embedding model text-embedding-test on Embedder/);
  });

  it("a refusal (a wrong key) is final and carries the provider's words; a busy server (503) is retried", async () => {
    mock.onEmbedding("refuse me", { error: { message: "Incorrect API key provided.", type: "invalid_request_error" }, status: 401 });
    const refused = await failure(embedTexts(target(mock.url, size), ["refuse me"]));
    expect(refused.reason).toBe("refused");
    expect(refused.retryable).toBe(false);
    expect(refused.message).toContain("HTTP 401");
    expect(refused.message).toContain("Incorrect API key provided.");

    mock.onEmbedding("busy now", { error: { message: "Model is loading.", type: "server_error" }, status: 503 });
    const busy = await failure(embedTexts(target(mock.url, size), ["busy now"]));
    expect(busy.reason).toBe("unreachable");
    expect(busy.retryable).toBe(true);
    expect(busy.message).toContain("Model is loading.");
  });

  it("a server that never answers times out and is retried later", async () => {
    const err = await failure(embedTexts(target(silentUrl, size), ["alpha"], { timeoutMs: 300 }));
    expect(err.reason).toBe("timeout");
    expect(err.retryable).toBe(true);
  });

  it("an Anthropic provider is refused with what to pick instead", async () => {
    const err = await failure(embedTexts(target(mock.url, size, "anthropic"), ["alpha"]));
    expect(err.reason).toBe("refused");
    expect(err.message).toContain("has no embedding models: pick an OpenAI or OpenAI-compatible provider");
  });

  it("stops when the caller stops, without calling that the server's failure", async () => {
    const controller = new AbortController();
    const pending = embedTexts(target(silentUrl, size), ["alpha"], { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.not.toBeInstanceOf(EmbeddingError);
  });
});
