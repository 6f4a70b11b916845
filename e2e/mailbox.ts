// What the e2e stack's SMTP server (e2e/mail-server.ts) received, read from its JSON mailbox: every spec
// can wait for the message a person would get and follow its link.
import { expect } from "@playwright/test";
import type { ReceivedMail } from "../test/support/smtp-server";

/** The stack's ports, from the run's upstream port (playwright.config.ts starts the server on them). */
export const SMTP_PORT = Number(process.env.E2E_SMTP_PORT || Number(process.env.E2E_UPSTREAM_PORT || 4011) + 20);
export const MAILBOX_PORT = SMTP_PORT + 1;
export const MAILBOX_URL = `http://127.0.0.1:${MAILBOX_PORT}`;

export type { ReceivedMail };

export async function mailTo(address: string): Promise<ReceivedMail[]> {
  const res = await fetch(`${MAILBOX_URL}/messages?to=${encodeURIComponent(address)}`);
  if (!res.ok) throw new Error(`the mailbox answered ${res.status}`);
  return (await res.json()) as ReceivedMail[];
}

/** Waits for the newest message to `address` whose subject matches (or that `match` accepts), and returns it. */
export async function waitForMail(address: string, match: RegExp | string | ((m: ReceivedMail) => boolean) = /./): Promise<ReceivedMail> {
  const matches = (m: ReceivedMail) => (typeof match === "function" ? match(m) : typeof match === "string" ? m.subject.includes(match) : match.test(m.subject));
  let found: ReceivedMail | undefined;
  await expect
    .poll(
      async () => {
        found = (await mailTo(address)).findLast(matches);
        return found ? "arrived" : "waiting";
      },
      { message: `an email to ${address} matching ${String(match)}`, timeout: 15_000 },
    )
    .toBe("arrived");
  return found!;
}

/** The message's link to a path of the app (`/invite/`, `/reset/`), made relative to the app's origin. */
export function linkIn(mail: ReceivedMail, pathPrefix: string): string {
  const link = mail.links.find((l) => new URL(l).pathname.startsWith(pathPrefix));
  if (!link) throw new Error(`no ${pathPrefix} link in "${mail.subject}": ${mail.links.join(", ") || "no links"}`);
  return link;
}
