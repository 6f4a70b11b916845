// Email through the operator's SMTP server, on nodemailer: SMTP_URL (smtp:// or smtps://, with the user
// and password in it), or SMTP_HOST with SMTP_PORT, SMTP_USER, SMTP_PASSWORD and SMTP_SECURE; SMTP_FROM
// is the sender. Without either, email is off: `emailEnabled()` says so and every feature falls back to
// the links admins hand over. `sendMail` throws an EmailError with a message a person can act on.
import nodemailer, { type Transporter } from "nodemailer";
import type SMTPTransport from "nodemailer/lib/smtp-transport";
import { config, publicUrl } from "../config";

export type Mail = { to: string; subject: string; text: string; html?: string };

/** What an admin may see of the settings: never the password. */
export type SmtpStatus = { enabled: false } | { enabled: true; host: string; port: number; secure: boolean; user: string | null; from: string };

export class EmailError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "EmailError";
  }
}

type Settings = { host: string; port: number; secure: boolean; user: string | null; password: string | null; from: string };

/** The settings from the environment, or null when email is off. */
export function smtpSettings(): Settings | null {
  const c = config();
  const from = c.SMTP_FROM ?? defaultFrom();
  if (c.SMTP_URL) {
    const u = new URL(c.SMTP_URL);
    const secure = u.protocol === "smtps:";
    return {
      host: u.hostname.replace(/^\[(.*)\]$/, "$1"),
      port: u.port ? Number(u.port) : secure ? 465 : 587,
      secure,
      user: u.username ? decodeURIComponent(u.username) : null,
      password: u.password ? decodeURIComponent(u.password) : null,
      from,
    };
  }
  if (!c.SMTP_HOST) return null;
  const port = c.SMTP_PORT ?? (c.SMTP_SECURE === "1" || c.SMTP_SECURE === "true" ? 465 : 587);
  const secure = c.SMTP_SECURE === undefined ? port === 465 : c.SMTP_SECURE === "1" || c.SMTP_SECURE === "true";
  return { host: c.SMTP_HOST, port, secure, user: c.SMTP_USER ?? null, password: c.SMTP_PASSWORD ?? null, from };
}

function defaultFrom(): string {
  const pub = publicUrl();
  const host = pub ? new URL(pub).hostname : "localhost";
  return `Parley <parley@${host}>`;
}

/** Whether the operator configured an SMTP server. */
export function emailEnabled(): boolean {
  return smtpSettings() !== null;
}

export function smtpStatus(): SmtpStatus {
  const s = smtpSettings();
  if (!s) return { enabled: false };
  return { enabled: true, host: s.host, port: s.port, secure: s.secure, user: s.user, from: s.from };
}

const KEY = Symbol.for("parley.mailer");
type Holder = { [KEY]?: { fingerprint: string; transport: Transporter<SMTPTransport.SentMessageInfo> } };
const holder = globalThis as Holder;

function transportFor(s: Settings) {
  const fingerprint = JSON.stringify(s);
  const cached = holder[KEY];
  if (cached && cached.fingerprint === fingerprint) return cached.transport;
  cached?.transport.close();
  const transport = nodemailer.createTransport({
    host: s.host,
    port: s.port,
    secure: s.secure,
    auth: s.user ? { user: s.user, pass: s.password ?? "" } : undefined,
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 30_000,
  });
  holder[KEY] = { fingerprint, transport };
  return transport;
}

/** Sends one message; throws an EmailError when email is off or the server does not take it. */
export async function sendMail(mail: Mail): Promise<{ messageId: string }> {
  const s = smtpSettings();
  if (!s) throw new EmailError("Email is off: the operator has not set SMTP_URL or SMTP_HOST.");
  try {
    const info = await transportFor(s).sendMail({ from: s.from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
    if (info.rejected.length > 0) throw new EmailError(`The SMTP server at ${s.host}:${s.port} refused the address ${mail.to}.`);
    return { messageId: info.messageId };
  } catch (error) {
    if (error instanceof EmailError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new EmailError(`Could not send email through ${s.host}:${s.port}: ${reason}`, { cause: error });
  }
}
