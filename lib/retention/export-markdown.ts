// A chat's export as Markdown (export.ts gathers it): the branch the chat shows, message by message,
// each tool call with its outcome and approval (who decided, when, why, the rule), each answer's
// sources and usage, each message's attachments with their links; then the other versions.
import type { ExportBlock, ExportedChat, ExportedMessage } from "./export";

const fence = (s: string) => "```json\n" + s + "\n```";
const json = (v: unknown) => fence(JSON.stringify(v ?? null, null, 2));

const OUTCOME_WORDS: Record<NonNullable<ExportBlock["outcome"]>, string> = {
  done: "Done",
  error: "Error",
  denied: "Denied (not run)",
  "timed-out": "Timed out: nobody decided in time (not run)",
  superseded: "Superseded by a new message (not run)",
  aborted: "Aborted (not run)",
  waiting: "Waiting for approval",
  decided: "Decided, not run yet",
  running: "Running",
};

/** The approval of a call in one line: "Denied by Ana at …. Reason: …. Rule: …". */
function approvalLine(b: ExportBlock): string | undefined {
  const a = b.approval;
  if (!a) return undefined;
  if (a.required === "auto") return `Ran without asking${a.rule ? `: rule “${a.rule}”` : ""}.`;
  const parts: string[] = [];
  if (a.decision)
    parts.push(`${a.decision[0].toUpperCase()}${a.decision.slice(1)}${a.decidedBy ? ` by ${a.decidedBy}` : ""}${a.decidedAt ? ` at ${a.decidedAt}` : ""}.`);
  else if (a.required) parts.push(`Waits for ${a.required === "admin" ? "an admin" : "the member"}${a.deadline ? ` until ${a.deadline}` : ""}.`);
  if (a.reason) parts.push(`Reason: ${a.reason}.`);
  if (a.rule) parts.push(`Rule: “${a.rule}”.`);
  return parts.join(" ");
}

function toolLines(b: ExportBlock): string[] {
  const out = [`**Tool call: ${b.toolName}** — ${OUTCOME_WORDS[b.outcome ?? "running"]}`, ""];
  const approval = approvalLine(b);
  if (approval) out.push(approval, "");
  if (b.approval?.originalInput !== undefined) out.push("Input as the model wrote it:", "", json(b.approval.originalInput), "", "Input as edited and run:", "");
  out.push(json(b.input), "");
  if (b.errorText) out.push(`Error: ${b.errorText}`, "");
  else if (b.outcome === "done") out.push(json(b.output), "");
  return out;
}

function messageLines(m: ExportedMessage, heading: string): string[] {
  const out = [
    `${heading} ${m.role === "user" ? "User" : m.role === "assistant" ? `Assistant${m.model ? ` (${m.model})` : ""}` : "System"}`,
    "",
    `_${m.createdAt}${m.status !== "done" ? ` · ${m.status}` : ""}_`,
    "",
  ];
  for (const b of m.blocks) {
    if (b.kind === "text" && b.text) out.push(b.text, "");
    if (b.kind === "reasoning" && b.text) out.push(`> ${b.text.replace(/\n/g, "\n> ")}`, "");
    if (b.kind === "tool") out.push(...toolLines(b));
    if (b.kind === "error" && b.text) out.push(`Error: ${b.text}`, "");
  }
  for (const a of m.attachments) out.push(`Attachment: [${a.name}](${a.url}) (${a.mediaType}, ${a.size} bytes)`, "");
  // File parts without a stored attachment (e.g. images from a tool): by name and type.
  for (const b of m.blocks)
    if (b.kind === "file" && !m.attachments.some((a) => a.name === b.name)) out.push(`Attachment: ${b.name ?? "file"} (${b.mediaType})`, "");
  if (m.citations.length) out.push("Sources:", "", ...m.citations.map((c) => `[${c.n}] ${c.title ? `${c.title} — ` : ""}${c.url}`), "");
  if (m.usage) {
    const u = m.usage;
    const tokens = [
      `${u.inputTokens ?? 0} input`,
      `${u.outputTokens ?? 0} output`,
      ...(u.cachedInputTokens ? [`${u.cachedInputTokens} cached input`] : []),
      ...(u.reasoningTokens ? [`${u.reasoningTokens} reasoning`] : []),
    ];
    out.push(`_Usage: ${tokens.join(", ")} tokens${u.cost != null ? `, $${u.cost.toFixed(6)}` : ""}._`, "");
  }
  return out;
}

export function chatMarkdown(chat: ExportedChat): string {
  const out = [`# ${chat.title ?? "Untitled chat"}`, "", `Exported from Parley. Owner: ${chat.owner}. Started ${chat.createdAt}.`, ""];
  for (const m of chat.messages) out.push(...messageLines(m, "##"));
  if (chat.otherVersions.length) {
    out.push("## Other versions", "", "Versions not on the branch the chat shows (earlier answers, edited questions and what followed them).", "");
    for (const m of chat.otherVersions) out.push(...messageLines(m, `### Version \`${m.id}\` (after \`${m.parentId ?? "the start"}\`):`));
  }
  return out.join("\n");
}
