// What happens in a team that people outside the app hear about (issue: email, webhooks, approve from a
// link): the events, as they are stored in the team's outbox and handed to each notification channel
// (webhooks, approval emails) after the change that caused them is committed. A channel never blocks a
// turn or a decision: delivery happens later, retried by the outbox (events.ts, dispatcher.ts).

/** Who did something, as people see them. */
export type Person = { id: string; name: string; email: string };

/** A tool call waits for an admin of the team (an "an admin approves" policy, or a rule that escalates). */
export type ApprovalRequested = {
  kind: "approval.requested";
  teamId: string;
  approvalId: string;
  chatId: string;
  chatTitle: string;
  member: Person;
  tool: { label: string; serverId: string | null; serverName: string | null; toolName: string };
  /** The call's arguments with secret-looking values masked ("••••"). */
  input: unknown;
  rule: string | null;
  deadline: string | null;
};

/** A call that waited for an admin was decided, by anyone or by its time limit, or ended without a decision. */
export type ApprovalDecided = {
  kind: "approval.decided";
  teamId: string;
  approvalId: string;
  chatId: string;
  outcome: "approved" | "denied" | "expired" | "superseded";
  by: Person | null;
  /** Where the decision was made: the inbox, a notification's link, the member's chat, a time limit. */
  via: "inbox" | "link" | "chat" | "timeout" | "superseded";
  reason: string | null;
};

/** A monthly budget reached WARN_AT of its limit, or is used up (turns are refused): once per budget, month (and member). */
export type BudgetEvent = {
  kind: "budget.warning" | "budget.exceeded";
  teamId: string;
  budgetId: string;
  /** "team", "member" (an override), "member_default" (every member's), "model". */
  scope: string;
  /** What the limit counts: US dollars, or tokens (input + output). */
  metric: "cost" | "tokens";
  used: number;
  limit: number;
  /** Whose use it counts, for a member's budget; the model, for a model's. */
  member: Person | null;
  model: string | null;
  /** The first day of the month it counts (YYYY-MM-DD), and when it resets (ISO time). */
  period: string;
  resetsAt: string;
};

export type MemberJoined = { kind: "member.joined"; teamId: string; member: Person; role: string };

export type McpServerDown = { kind: "mcp.server_down"; teamId: string; serverId: string; serverName: string; reason: string };

export type TeamEvent = ApprovalRequested | ApprovalDecided | BudgetEvent | MemberJoined | McpServerDown;
export type TeamEventKind = TeamEvent["kind"];

export const TEAM_EVENT_KINDS: readonly TeamEventKind[] = [
  "approval.requested",
  "approval.decided",
  "budget.warning",
  "budget.exceeded",
  "member.joined",
  "mcp.server_down",
];

/** An event as the outbox keeps it: its id (stable across retries, for receivers to de-duplicate) and when it happened. */
export type StoredTeamEvent = TeamEvent & { id: string; at: string };

/**
 * A way out of the app. `deliver` gets a team's committed events in order, may be called again with the
 * same events after a failure (ids are stable), and must not throw for one bad recipient: it records
 * that recipient's failure itself.
 */
export type NotificationChannel = { name: string; deliver(events: StoredTeamEvent[]): Promise<void> };
