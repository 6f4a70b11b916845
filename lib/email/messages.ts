// The emails Parley sends people, as text and as simple HTML (every value escaped): an invite into a
// team, a password reset link (asked for by the person or made by an admin), and an admin's test
// message. Each names who it is for and what the link does, and says what to do if it was not expected.
import type { Mail } from "./mailer";

export const escapeHtml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

/** When a link stops working, as people read it (UTC, so it reads the same wherever the mail is opened). */
export function whenText(d: Date): string {
  return `${d.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

type Body = { to: string; subject: string; lines: string[]; link?: { url: string; label: string }; after?: string[] };

/** A message from paragraphs and one button-like link; the text version carries the link on its own line. */
function compose({ to, subject, lines, link, after = [] }: Body): Mail {
  const text = [...lines, ...(link ? [`${link.label}: ${link.url}`] : []), ...after, "— Parley"].join("\n\n");
  const p = (s: string) => `<p style="margin:0 0 16px">${escapeHtml(s)}</p>`;
  const button = link
    ? `<p style="margin:0 0 16px"><a href="${escapeHtml(link.url)}" style="display:inline-block;padding:10px 16px;background:#111827;color:#ffffff;border-radius:6px;text-decoration:none">${escapeHtml(link.label)}</a></p>` +
      `<p style="margin:0 0 16px;font-size:12px;color:#4b5563">Or open this address: ${escapeHtml(link.url)}</p>`
    : "";
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;font-size:14px;line-height:1.5;color:#111827">${lines.map(p).join("")}${button}${after.map(p).join("")}<p style="margin:0;color:#4b5563">— Parley</p></body></html>`;
  return { to, subject, text, html };
}

export function inviteMail(input: { to: string; teamName: string; inviterName: string; role: "admin" | "member"; url: string; expiresAt: Date }): Mail {
  const as = input.role === "admin" ? "an admin" : "a member";
  return compose({
    to: input.to,
    subject: `${input.inviterName} invited you to ${input.teamName} on Parley`,
    lines: [`${input.inviterName} invited you to join the team ${input.teamName} on Parley, as ${as}.`],
    link: { url: input.url, label: `Join ${input.teamName}` },
    after: [`The link works once, until ${whenText(input.expiresAt)}. If you did not expect this invite, ignore this email.`],
  });
}

export function resetMail(input: { to: string; name: string; url: string; expiresAt: Date; adminName?: string }): Mail {
  const why = input.adminName
    ? `${input.adminName}, an admin of your team, made a link for you to choose a new Parley password.`
    : "Someone (we hope you) asked to reset the password of your Parley account.";
  return compose({
    to: input.to,
    subject: "Reset your Parley password",
    lines: [`Hello ${input.name},`, why],
    link: { url: input.url, label: "Choose a new password" },
    after: [
      `The link works once, until ${whenText(input.expiresAt)}. Setting a new password signs your account out everywhere.`,
      "If you did not ask for this, ignore this email: your password stays as it is.",
    ],
  });
}

export function testMail(input: { to: string; name: string; sentBy: string }): Mail {
  return compose({
    to: input.to,
    subject: "Parley test email",
    lines: [`Hello ${input.name},`, `${input.sentBy} sent this test from Admin → Notifications. Email from Parley reaches you.`],
  });
}
