// The e2e stack's SMTP server (test/support/smtp-server.ts) as a process of its own, started by
// playwright.config.ts beside the app, which gets its SMTP_URL: every message the app sends lands here.
// Specs read them from a small JSON mailbox over HTTP (e2e/mailbox.ts):
//   GET /messages?to=<address>  the messages to that address (all without `to`), oldest first
//   GET /health                 200 once both listen
// Usage: tsx e2e/mail-server.ts --smtp-port <n> --http-port <n>
import http from "node:http";
import { startSmtpServer } from "../test/support/smtp-server";

const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : 0;
};

// No top-level await: tsx runs this file as CommonJS.
async function main() {
  const smtp = await startSmtpServer({ port: arg("smtp-port") });
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://mailbox");
    if (req.method === "GET" && url.pathname === "/messages") {
      const to = url.searchParams.get("to");
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(to ? smtp.to(to) : smtp.messages));
      return;
    }
    if (req.method === "GET" && url.pathname === "/health") {
      res.writeHead(200, { "content-type": "text/plain" });
      res.end("ok");
      return;
    }
    res.writeHead(404).end();
  });
  server.listen(arg("http-port"), "127.0.0.1", () => {
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : 0;
    console.log(`mail server: SMTP on 127.0.0.1:${smtp.port}, mailbox on http://127.0.0.1:${port}`);
  });
  for (const sig of ["SIGINT", "SIGTERM"] as const)
    process.on(sig, () => {
      server.close();
      void smtp.close().then(() => process.exit(0));
    });
}

main().catch((err: unknown) => {
  console.error("mail server: could not start:", err);
  process.exit(1);
});
