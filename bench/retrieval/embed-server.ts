// An OpenAI-compatible embeddings endpoint (POST /v1/embeddings) on loopback for the retrieval bench,
// serving bench/retrieval/embedder.ts's vectors, so that documents and questions go through the app's
// real embedding client (lib/knowledge/embed.ts) and indexer.
import http from "node:http";
import type { Embedder } from "./embedder";

export type EmbedServer = { url: string; requests: () => number; stop: () => Promise<void> };

/** Listens on 127.0.0.1:`port` (0: any free port). */
export async function startEmbedServer(embedder: Embedder, port: number): Promise<EmbedServer> {
  let requests = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const reply = (status: number, body: unknown) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(body));
      };
      if (req.method !== "POST" || !req.url?.endsWith("/embeddings")) return reply(404, { error: { message: "not found" } });
      let input: unknown;
      try {
        input = (JSON.parse(Buffer.concat(chunks).toString("utf8")) as { input?: unknown }).input;
      } catch {
        return reply(400, { error: { message: "bad JSON" } });
      }
      const texts = typeof input === "string" ? [input] : Array.isArray(input) && input.every((t) => typeof t === "string") ? (input as string[]) : undefined;
      if (!texts) return reply(400, { error: { message: "input must be a string or an array of strings" } });
      requests++;
      const words = texts.reduce((n, t) => n + t.split(/\s+/).length, 0);
      reply(200, {
        object: "list",
        model: `bench-${embedder.kind}`,
        data: texts.map((t, index) => ({ object: "embedding", index, embedding: embedder.embed(t) })),
        usage: { prompt_tokens: words, total_tokens: words },
      });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const address = server.address();
  return {
    url: `http://127.0.0.1:${typeof address === "object" && address ? address.port : port}`,
    requests: () => requests,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
