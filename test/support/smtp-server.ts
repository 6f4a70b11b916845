// A real SMTP server on loopback for tests (smtp-server + mailparser): it takes every message, parses it
// and keeps it, so a test reads what a person would receive (subject, text, html, the links in it).
// Optionally requires a user and password (AUTH PLAIN/LOGIN), or refuses every message (a broken
// server). STARTTLS is off: the mailer would not trust a test certificate, and loopback needs none.
// The e2e stack runs it as a process of its own with a small JSON mailbox over HTTP (e2e/mail-server.ts).
import type { AddressInfo } from "node:net";
import { simpleParser, type AddressObject } from "mailparser";
import { SMTPServer } from "smtp-server";

export type ReceivedMail = {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  /** Every http(s) link in the text and the html, in order, without duplicates. */
  links: string[];
  /** The envelope's recipients (RCPT TO), as the server saw them. */
  envelopeTo: string[];
  at: string;
};

export type SmtpServerOptions = { port?: number; host?: string; user?: string; password?: string; refuse?: boolean };

export type TestSmtpServer = {
  port: number;
  /** An SMTP_URL the mailer can use (with the user and password when the server requires them). */
  url: string;
  messages: ReceivedMail[];
  /** The messages to an address (case-insensitive), oldest first. */
  to(address: string): ReceivedMail[];
  /** Waits until a message matching `match` arrived, and returns it (polls; no fixed sleep). */
  waitFor(match: (m: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  /** How many sign-in attempts failed (wrong user or password). */
  failedLogins: number;
  clear(): void;
  close(): Promise<void>;
};

const LINK = /https?:\/\/[^\s"'<>)]+/g;

function addresses(a: AddressObject | AddressObject[] | undefined): string[] {
  const list = Array.isArray(a) ? a : a ? [a] : [];
  return list.flatMap((o) => o.value.map((v) => (v.address ?? "").toLowerCase())).filter(Boolean);
}

export function linksIn(text: string, html: string): string[] {
  const found = [...text.matchAll(LINK), ...html.replace(/&amp;/g, "&").matchAll(LINK)].map((m) => m[0].replace(/[.,;]+$/, ""));
  return [...new Set(found)];
}

export async function startSmtpServer(options: SmtpServerOptions = {}): Promise<TestSmtpServer> {
  const messages: ReceivedMail[] = [];
  const state = { failedLogins: 0 };
  const server = new SMTPServer({
    secure: false,
    disabledCommands: options.user ? ["STARTTLS"] : ["STARTTLS", "AUTH"],
    authOptional: !options.user,
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === options.user && auth.password === options.password) return callback(null, { user: auth.username });
      state.failedLogins++;
      return callback(new Error("Invalid username or password"));
    },
    onData(stream, session, callback) {
      if (options.refuse) {
        stream.resume();
        stream.on("end", () => callback(Object.assign(new Error("Message refused by the test server"), { responseCode: 554 })));
        return;
      }
      simpleParser(stream)
        .then((parsed) => {
          const text = parsed.text ?? "";
          const html = typeof parsed.html === "string" ? parsed.html : "";
          messages.push({
            from: parsed.from?.text ?? "",
            to: addresses(parsed.to),
            subject: parsed.subject ?? "",
            text,
            html,
            links: linksIn(text, html),
            envelopeTo: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            at: new Date().toISOString(),
          });
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  server.on("error", () => {});
  const port = (server.server.address() as AddressInfo).port;
  const auth = options.user ? `${encodeURIComponent(options.user)}:${encodeURIComponent(options.password ?? "")}@` : "";
  const to = (address: string) => messages.filter((m) => m.envelopeTo.includes(address.toLowerCase()) || m.to.includes(address.toLowerCase()));
  return {
    port,
    url: `smtp://${auth}${host}:${port}`,
    messages,
    to,
    get failedLogins() {
      return state.failedLogins;
    },
    async waitFor(match, timeoutMs = 10_000) {
      const end = Date.now() + timeoutMs;
      for (;;) {
        const found = messages.find(match);
        if (found) return found;
        if (Date.now() > end)
          throw new Error(`No matching message arrived; received: ${messages.map((m) => `"${m.subject}" to ${m.to.join(",")}`).join("; ") || "none"}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    clear() {
      messages.length = 0;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
