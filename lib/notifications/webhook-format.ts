// What a webhook receiver gets: the body (Parley's JSON, or a Slack-compatible incoming-webhook
// message) and the headers, signed. The signature is `Parley-Signature: t=<unix seconds>,v1=<hex>`, where
// v1 is HMAC-SHA256 with the webhook's secret over `<t>.<body>` (docs/api.md says how to verify it).
import crypto from "node:crypto";
import { formatBudgetAmount } from "../format/usage";
import type { BudgetEvent, StoredTeamEvent, TeamEventKind } from "./team-events";

export const WEBHOOK_FORMATS = ["parley", "slack"] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];

/** What each event kind is called where an admin picks them. */
export const EVENT_LABELS: Record<TeamEventKind, string> = {
  "approval.requested": "A call waits for an admin",
  "approval.decided": "A waiting call was decided",
  "budget.warning": "A budget nears its limit",
  "budget.exceeded": "A budget is used up",
  "member.joined": "A member joined",
  "mcp.server_down": "An MCP server is down",
};

/** A new signing secret (shown to the admin once, stored sealed). */
export function newSigningSecret(): string {
  return `whsec_${crypto.randomBytes(32).toString("base64url")}`;
}

/** The Parley-Signature header's value for `body` sent at `t` (unix seconds). */
export function signature(secret: string, t: number, body: string): string {
  const v1 = crypto.createHmac("sha256", secret).update(`${t}.${body}`).digest("hex");
  return `t=${t},v1=${v1}`;
}

function budgetName(e: BudgetEvent): string {
  if (e.scope === "team") return "The team's monthly budget";
  if (e.scope === "model") return `The monthly budget for ${e.model ?? "a model"}`;
  return `${e.member?.name ?? "A member"}'s monthly budget`;
}

function budgetText(e: BudgetEvent): string {
  const amounts = `${formatBudgetAmount(e.metric, e.used)} of ${formatBudgetAmount(e.metric, e.limit)}`;
  if (e.kind === "budget.warning") return `${budgetName(e)} is ${Math.min(100, Math.floor((e.used / e.limit) * 100))}% used (${amounts}).`;
  return `${budgetName(e)} is used up (${amounts}): turns it counts are refused until ${e.resetsAt.slice(0, 10)}.`;
}

/** One line a person reads in a chat tool. */
export function eventText(e: StoredTeamEvent, appUrl?: string): string {
  const link = (path: string, label: string) => (appUrl ? ` <${appUrl}${path}|${label}>` : "");
  switch (e.kind) {
    case "approval.requested":
      return `${e.member.name} wants to run ${e.tool.label} in “${e.chatTitle}”; it waits for an admin.${e.rule ? ` (Rule: ${e.rule})` : ""}${link("/admin/approvals", "Open the inbox")}`;
    case "approval.decided": {
      const how = { approved: "approved", denied: "denied", expired: "denied: no decision in time", superseded: "ended: a new message was sent" }[e.outcome];
      return `A call waiting for an admin was ${how}${e.by && e.outcome !== "superseded" ? ` by ${e.by.name}` : ""}${e.reason && e.outcome === "denied" ? ` (“${e.reason}”)` : ""}.`;
    }
    case "budget.warning":
    case "budget.exceeded":
      return `${budgetText(e)}${link("/admin/usage", "Usage")}`;
    case "member.joined":
      return `${e.member.name} (${e.member.email}) joined the team as ${e.role}.`;
    case "mcp.server_down":
      return `The MCP server ${e.serverName} is down: ${e.reason}${link("/admin/mcp", "MCP servers")}`;
  }
}

/** The request body for `format`. */
export function webhookBody(format: WebhookFormat, e: StoredTeamEvent, appUrl?: string): string {
  if (format === "slack") return JSON.stringify({ text: eventText(e, appUrl) });
  return JSON.stringify(e);
}

/** The headers of one delivery. */
export function webhookHeaders(secret: string, e: StoredTeamEvent, deliveryId: string, body: string, now = Date.now()): Record<string, string> {
  return {
    "content-type": "application/json",
    "user-agent": "Parley-Webhooks/1",
    "parley-event": e.kind,
    "parley-event-id": e.id,
    "parley-delivery": deliveryId,
    "parley-signature": signature(secret, Math.floor(now / 1000), body),
  };
}
