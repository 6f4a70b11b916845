// The approval emails as people read them, text and HTML (every value escaped): one call waiting for the
// reader's approval, or a digest of several gathered over a few minutes. Each call names the tool, who
// asked, in which team and chat, the rule that asked and the time limit, shows the arguments (secret-
// looking values masked again by mask.ts, long ones cut), and carries its own decision link. Also the member's note that
// a call of theirs was decided.
import type { Mail } from "../email/mailer";
import { escapeHtml, whenText } from "../email/messages";
import { maskSecrets } from "./mask";

/** What an approval email says about one waiting call (the event's facts and the reader's link). */
export type MailedRequest = {
  teamName: string;
  tool: { label: string };
  member: { name: string; email: string };
  chatTitle: string;
  input: unknown;
  rule: string | null;
  deadline: string | null;
  url: string;
};

const MAX_INPUT_CHARS = 2_000;

export function inputText(input: unknown): string {
  const text = JSON.stringify(maskSecrets(input ?? {}), null, 2) ?? "{}";
  return text.length > MAX_INPUT_CHARS ? `${text.slice(0, MAX_INPUT_CHARS)}\n… (cut: open the link to see all of it)` : text;
}

function facts(r: MailedRequest): string[] {
  return [
    `${r.member.name} (${r.member.email}) asked for ${r.tool.label} in the chat “${r.chatTitle}” of ${r.teamName}.`,
    ...(r.rule ? [`Asked by the rule “${r.rule}”.`] : []),
    ...(r.deadline ? [`Denied automatically unless decided by ${whenText(new Date(r.deadline))}.`] : []),
  ];
}

function textBlock(r: MailedRequest): string {
  return [...facts(r), `Arguments:\n${inputText(r.input)}`, `Approve, deny or edit: ${r.url}`].join("\n\n");
}

function htmlBlock(r: MailedRequest): string {
  const p = (s: string) => `<p style="margin:0 0 8px">${escapeHtml(s)}</p>`;
  return (
    `<div style="margin:0 0 24px;padding:12px;border:1px solid #d1d5db;border-radius:6px">` +
    `<p style="margin:0 0 8px;font-weight:600">${escapeHtml(r.tool.label)}</p>` +
    facts(r).map(p).join("") +
    `<pre style="margin:0 0 12px;padding:8px;background:#f3f4f6;border-radius:4px;white-space:pre-wrap;font-size:12px">${escapeHtml(inputText(r.input))}</pre>` +
    `<a href="${escapeHtml(r.url)}" style="display:inline-block;padding:8px 14px;background:#111827;color:#ffffff;border-radius:6px;text-decoration:none">Approve, deny or edit</a>` +
    `<p style="margin:8px 0 0;font-size:12px;color:#4b5563">Or open this address: ${escapeHtml(r.url)}</p>` +
    `</div>`
  );
}

/** One email for one or several waiting calls (a digest when several). */
export function approvalMail(input: { to: string; name: string; requests: MailedRequest[]; inboxUrl: string; linkNote: string }): Mail {
  const { requests } = input;
  const one = requests.length === 1;
  const subject = one ? `Approval needed: ${requests[0].tool.label} for ${requests[0].member.name}` : `${requests.length} tool calls wait for your approval`;
  const intro = one
    ? `Hello ${input.name}, a tool call waits for your approval.`
    : `Hello ${input.name}, ${requests.length} tool calls wait for your approval (gathered over the last few minutes).`;
  const after = [
    input.linkNote,
    `Every waiting call is also in the Approvals inbox: ${input.inboxUrl}`,
    "You get this because you are an admin who approves these calls. Turn these emails off in Parley under Profile → Notifications.",
  ];
  const text = [intro, ...requests.map(textBlock), ...after, "— Parley"].join("\n\n");
  const p = (s: string) => `<p style="margin:0 0 16px">${escapeHtml(s)}</p>`;
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;font-size:14px;line-height:1.5;color:#111827">${p(intro)}${requests.map(htmlBlock).join("")}${after.map(p).join("")}<p style="margin:0;color:#4b5563">— Parley</p></body></html>`;
  return { to: input.to, subject, text, html };
}

const OUTCOME_WORDS = { approved: "approved", denied: "denied", expired: "denied by its time limit" } as const;

/** The member's note: an admin (or a time limit) decided a call of theirs; their answer goes on. */
export function decidedMail(input: {
  to: string;
  name: string;
  chatTitle: string;
  tool: string;
  outcome: keyof typeof OUTCOME_WORDS;
  by: string | null;
  reason: string | null;
  chatUrl: string;
}): Mail {
  const who = input.outcome === "expired" ? "" : ` by ${input.by ?? "an admin"}`;
  const lines = [
    `Hello ${input.name},`,
    `Your tool call ${input.tool} in the chat “${input.chatTitle}” was ${OUTCOME_WORDS[input.outcome]}${who}.${input.reason ? ` Reason: ${input.reason}` : ""}`,
    `The answer goes on in your chat: ${input.chatUrl}`,
    "Turn these emails off in Parley under Profile → Notifications.",
  ];
  const text = [...lines, "— Parley"].join("\n\n");
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;font-size:14px;line-height:1.5;color:#111827">${lines.map((l) => `<p style="margin:0 0 16px">${escapeHtml(l)}</p>`).join("")}<p style="margin:0;color:#4b5563">— Parley</p></body></html>`;
  return { to: input.to, subject: `Your call ${input.tool} was ${OUTCOME_WORDS[input.outcome]}`, text, html };
}
