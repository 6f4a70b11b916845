// A webhook receiver on loopback for tests: a real HTTP server that records every request (headers and
// raw body) and answers each with what the test scripted (a status, or never: a dead receiver that holds
// the connection open), and checks Parley-Signature the way docs/api.md tells receivers to.
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

export type Received = { headers: http.IncomingHttpHeaders; body: string; at: number };
/** How to answer a request: a status, or "hang" (never answer until the receiver stops). */
export type Answer = number | "hang";

export type WebhookReceiver = {
  url: string;
  received: Received[];
  /** Answers for the next requests, in order; once used up, 200. */
  script(...answers: Answer[]): void;
  /** Requests waiting for an answer that never comes. */
  hanging(): number;
  stop(): Promise<void>;
};

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: Received[] = [];
  const answers: Answer[] = [];
  const held = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() });
      const answer = answers.shift() ?? 200;
      if (answer === "hang") {
        held.add(res);
        res.on("close", () => held.delete(res));
        return;
      }
      res.writeHead(answer, { "content-type": "text/plain" }).end(answer < 300 ? "ok" : "no");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    script: (...a) => answers.push(...a),
    hanging: () => held.size,
    async stop() {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Whether `header` (Parley-Signature: t=<unix seconds>,v1=<hex>) signs `body` with `secret`, checked as a receiver would. */
export function verifySignature(secret: string, header: string | string[] | undefined, body: string, toleranceSec = 300): boolean {
  if (typeof header !== "string") return false;
  const parts = Object.fromEntries(header.split(",").map((p) => p.split("=", 2) as [string, string]));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || Math.abs(Date.now() / 1000 - t) > toleranceSec || !parts.v1) return false;
  const expected = crypto.createHmac("sha256", secret).update(`${t}.${body}`).digest();
  const given = Buffer.from(parts.v1, "hex");
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}
