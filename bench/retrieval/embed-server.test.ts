// The retrieval bench's embeddings, as the app's embedding client reads them over HTTP on loopback:
// one unit vector per text of the base's size, the same text always the same vector, a paraphrase
// sharing words nearer than an unrelated text; bad requests refused as an OpenAI server would.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { embedTexts } from "../../lib/knowledge/embed";
import { hashedEmbedder } from "./embedder";
import { startEmbedServer, type EmbedServer } from "./embed-server";

const cosine = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i], 0);

describe("the bench's embeddings server", () => {
  let server: EmbedServer;
  beforeAll(async () => {
    server = await startEmbedServer(hashedEmbedder(), 0);
  });
  afterAll(() => server?.stop());

  it("serves the app's embedding client: unit vectors of the base's size, the same for the same text", async () => {
    const target = {
      provider: { kind: "openai_compatible" as const, name: "Bench", baseUrl: `${server.url}/v1`, apiKeyEnc: null, headersEnc: null },
      modelId: "bench-hashed",
      dimensions: 384,
    };
    const texts = [
      "Refunds are paid back to the original payment method within five business days.",
      "How long until my refund is paid back?",
      "The database is backed up every night at 02:00 UTC.",
      "Refunds are paid back to the original payment method within five business days.",
    ];
    const { embeddings } = await embedTexts(target, texts);
    expect(embeddings).toHaveLength(4);
    for (const e of embeddings) {
      expect(e).toHaveLength(384);
      expect(Math.hypot(...e)).toBeCloseTo(1, 9);
    }
    expect(embeddings[3]).toEqual(embeddings[0]);
    expect(cosine(embeddings[0], embeddings[1])).toBeGreaterThan(cosine(embeddings[2], embeddings[1]));
    expect(server.requests()).toBe(1); // one batch
  });

  it("refuses what an OpenAI server refuses", async () => {
    const post = (body: string) => fetch(`${server.url}/v1/embeddings`, { method: "POST", headers: { "content-type": "application/json" }, body });
    expect((await post("{not json")).status).toBe(400);
    expect((await post(JSON.stringify({ input: [1, 2] }))).status).toBe(400);
    expect((await fetch(`${server.url}/v1/chat/completions`, { method: "POST", body: "{}" })).status).toBe(404);
  });
});
