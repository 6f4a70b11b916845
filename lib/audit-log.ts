// Reading the audit log of a team for people: newest first, in pages, filtered by action, member and
// date range; each event with who did it (by name), what (a readable label), to what (the target's
// name now, else the name the event recorded) and its details as label/value pairs.
import { z } from "zod";
import { db } from "./db/client";
import type { Prisma } from "./db/generated/client";

export const AUDIT_PAGE_SIZE = 50;

const ACTIONS: Record<string, string> = {
  "team.create": "Created the team",
  "team.rename": "Renamed the team",
  "team.models": "Changed the team's models",
  "invite.create": "Created an invite link",
  "invite.revoke": "Revoked an invite link",
  "invite.accept": "Joined with an invite link",
  "member.role": "Changed a member's role",
  "member.remove": "Removed a member",
  "member.leave": "Left the team",
  "provider.create": "Added a provider",
  "provider.update": "Changed a provider",
  "provider.enable": "Enabled a provider",
  "provider.disable": "Disabled a provider",
  "provider.delete": "Deleted a provider",
  "model.create": "Added a model",
  "model.update": "Changed a model",
  "model.enable": "Enabled models",
  "model.delete": "Deleted a model",
  "mcp.server.create": "Added an MCP server",
  "mcp.server.update": "Changed an MCP server",
  "mcp.server.enable": "Enabled an MCP server",
  "mcp.server.disable": "Disabled an MCP server",
  "mcp.server.delete": "Deleted an MCP server",
  "mcp.server.policy": "Changed a server's default policy",
  "mcp.server.default-on": "Turned a server on by default",
  "mcp.server.default-off": "Turned a server off by default",
  "mcp.tool.enable": "Enabled a tool",
  "mcp.tool.disable": "Disabled a tool",
  "mcp.tool.policy": "Changed a tool's policy",
  "tool.approve": "Approved a tool call",
  "tool.deny": "Denied a tool call",
  "tool.always-allow": "Always allowed a tool",
  "tool.always-allow.revoke": "Stopped always allowing a tool",
  "tool.edit": "Edited a tool call's input",
  "tool.auto": "Ran a tool call without asking (a rule)",
  "retention.sweep": "Deleted chats past the retention period",
  "tool.allow-chat": "Allowed a tool for one chat",
  "mcp.tool.rules": "Changed a tool's rules",
  "mcp.tool.decision-timeout": "Changed a tool's time limit",
  "mcp.server.decision-timeout": "Changed a server's time limit",
  "mcp.server.trust-read-only": "Trusted a server's read-only hints",
  "mcp.server.distrust-read-only": "Stopped trusting a server's read-only hints",
  "mcp.server.approvers": "Named the admins emailed for a server's calls",
  "team.approval-links": "Changed whether approval emails' links need sign-in",
  "model.provider-tools": "Changed a model's provider-executed tools",
  "sso.provider.create": "Set up single sign-on",
  "sso.provider.update": "Changed single sign-on",
  "sso.provider.delete": "Removed single sign-on",
  "sso.rule.create": "Added a group rule",
  "sso.rule.delete": "Removed a group rule",
  "sso.password_sign_in.on": "Turned password sign-in on",
  "sso.password_sign_in.off": "Turned password sign-in off",
  "sso.membership": "Membership set by single sign-on groups",
  "sso.membership.kept": "Kept a team's last admin despite their groups",
  "sso.link": "Linked single sign-on to an account",
  "sso.unlink": "Unlinked single sign-on from an account",
};

export function actionLabel(action: string): string {
  return ACTIONS[action] ?? action.replace(/[.-]/g, " ");
}

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "Use a date like 2026-01-31.");
/** The filters of the audit page, from its query string; anything else is ignored. */
export const auditFilterSchema = z.object({
  action: z.string().max(64).optional().catch(undefined),
  actor: z.string().max(64).optional().catch(undefined),
  from: day.optional().catch(undefined),
  to: day.optional().catch(undefined),
  /** A tool's name (as the event recorded it; part of it is enough). */
  tool: z.string().trim().max(200).optional().catch(undefined),
  decision: z.enum(["approved", "denied", "edited", "timed-out"]).optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(100_000).optional().catch(undefined),
});
export type AuditFilter = z.infer<typeof auditFilterSchema>;

export type AuditRow = {
  id: string;
  at: Date;
  actor: string;
  action: string;
  label: string;
  target: string | null;
  details: { label: string; value: string }[];
};

const TARGET_KEYS = ["name", "server", "tool", "provider", "model", "email"];

/** A detail value as text: lists joined, objects as key: value, nothing longer than a line or two. */
function text(value: unknown): string {
  if (value === null || value === undefined) return "—";
  if (Array.isArray(value)) return value.map(text).join(", ") || "none";
  if (typeof value === "object")
    return Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${k}: ${text(v)}`)
      .join("; ");
  return String(value).slice(0, 500);
}

const humanKey = (k: string) => k.replace(/([a-z])([A-Z])/g, "$1 $2").replace(/^./, (c) => c.toUpperCase());

function details(data: Prisma.JsonValue | null): AuditRow["details"] {
  if (!data || typeof data !== "object" || Array.isArray(data)) return data == null ? [] : [{ label: "Details", value: text(data) }];
  return Object.entries(data).map(([k, v]) => ({ label: humanKey(k), value: text(v) }));
}

/** The name an event recorded for its target (for targets deleted since). */
function recordedName(data: Prisma.JsonValue | null): string | undefined {
  if (!data || typeof data !== "object" || Array.isArray(data)) return undefined;
  const d = data as Record<string, unknown>;
  if (typeof d.server === "string" && typeof d.tool === "string") return `${d.server} › ${d.tool}`;
  const key = TARGET_KEYS.find((k) => typeof d[k] === "string");
  return key ? String(d[key]) : undefined;
}

/** Current names of the targets, looked up per type in one query each. */
async function targetNames(teamId: string, events: { targetType: string | null; targetId: string | null }[]): Promise<Map<string, string>> {
  const prisma = await db();
  const ids = (type: string) => [...new Set(events.filter((e) => e.targetType === type && e.targetId).map((e) => e.targetId!))];
  const calls = ids("tool-call");
  const [users, servers, tools, providers, models, teams, blocks] = await Promise.all([
    prisma.user.findMany({ where: { id: { in: ids("user") }, memberships: { some: { teamId } } }, select: { id: true, name: true } }),
    prisma.mcpServer.findMany({ where: { id: { in: ids("mcp-server") }, teamId }, select: { id: true, name: true } }),
    prisma.mcpTool.findMany({
      where: { id: { in: [...ids("mcp-tool"), ...ids("tool")] }, server: { teamId } },
      select: { id: true, name: true, server: { select: { name: true } } },
    }),
    prisma.provider.findMany({ where: { id: { in: ids("provider") }, OR: [{ teamId }, { teamId: null }] }, select: { id: true, name: true } }),
    prisma.model.findMany({ where: { id: { in: ids("model") }, provider: { OR: [{ teamId }, { teamId: null }] } }, select: { id: true, displayName: true } }),
    prisma.team.findMany({ where: { id: { in: ids("team").filter((id) => id === teamId) } }, select: { id: true, name: true } }),
    // A tool call is its block (by the model's call id, else the block's own), while its chat lives.
    calls.length
      ? prisma.block.findMany({
          where: { OR: [{ toolCallId: { in: calls } }, { id: { in: calls } }], kind: "tool", message: { chat: { teamId } } },
          select: { id: true, toolCallId: true, toolName: true },
        })
      : [],
  ]);
  return new Map([
    ...users.map((u) => [`user:${u.id}`, u.name] as const),
    ...servers.map((s) => [`mcp-server:${s.id}`, s.name] as const),
    ...tools.flatMap((t) => [[`mcp-tool:${t.id}`, `${t.server.name} › ${t.name}`] as const, [`tool:${t.id}`, `${t.server.name} › ${t.name}`] as const]),
    ...providers.map((p) => [`provider:${p.id}`, p.name] as const),
    ...models.map((m) => [`model:${m.id}`, m.displayName] as const),
    ...teams.map((t) => [`team:${t.id}`, t.name] as const),
    ...blocks.flatMap((b) =>
      [b.toolCallId, b.id].filter((id): id is string => !!id && calls.includes(id)).map((id) => [`tool-call:${id}`, b.toolName ?? "a tool call"] as const),
    ),
  ]);
}

function whereOf(teamId: string, f: AuditFilter): Prisma.AuditEventWhereInput {
  const createdAt: Prisma.DateTimeFilter = {};
  if (f.from) createdAt.gte = new Date(`${f.from}T00:00:00.000Z`);
  if (f.to) createdAt.lt = new Date(new Date(`${f.to}T00:00:00.000Z`).getTime() + 86_400_000);
  const timedOut: Prisma.AuditEventWhereInput = { data: { path: ["timedOut"], equals: true } };
  const decision: Prisma.AuditEventWhereInput | undefined =
    f.decision === "approved"
      ? { action: "tool.approve" }
      : f.decision === "edited"
        ? { action: "tool.edit" }
        : f.decision === "timed-out"
          ? { action: "tool.deny", ...timedOut }
          : f.decision === "denied"
            ? // A time limit denies without an actor. (A person removed since also has none: "any decision" shows theirs.)
              { action: "tool.deny", actorId: { not: null } }
            : undefined;
  return {
    teamId,
    ...(f.action && !decision ? { action: f.action } : {}),
    ...(f.actor ? { actorId: f.actor } : {}),
    ...(f.from || f.to ? { createdAt } : {}),
    ...(f.tool ? { data: { path: ["tool"], string_contains: f.tool } } : {}),
    ...(decision ? { AND: [decision] } : {}),
  };
}

/** Who an event names as its actor: the person, the time limit, or someone since removed. */
function actorName(e: { actor: { name: string } | null; actorId: string | null; data: Prisma.JsonValue | null }): string {
  if (e.actor) return e.actor.name;
  if (!e.actorId && (e.data as { timedOut?: unknown } | null)?.timedOut === true) return "Time limit";
  return "Someone no longer here";
}

/** One page of the team's events matching `filter`, newest first, and whether older ones follow. */
export async function listAuditEvents(teamId: string, filter: AuditFilter = {}): Promise<{ rows: AuditRow[]; page: number; hasMore: boolean }> {
  const prisma = await db();
  const page = filter.page ?? 1;
  const events = await prisma.auditEvent.findMany({
    where: whereOf(teamId, filter),
    include: { actor: { select: { name: true } } },
    // Joined, every event of the team would get its actor before the sort and the cut (see history.ts).
    relationLoadStrategy: "query",
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    skip: (page - 1) * AUDIT_PAGE_SIZE,
    take: AUDIT_PAGE_SIZE + 1,
  });
  const shown = events.slice(0, AUDIT_PAGE_SIZE);
  const names = await targetNames(teamId, shown);
  const rows = shown.map((e) => ({
    id: e.id,
    at: e.createdAt,
    actor: actorName(e),
    action: e.action,
    label: actionLabel(e.action),
    target: names.get(`${e.targetType}:${e.targetId}`) ?? recordedName(e.data) ?? (e.targetType ? `a ${e.targetType.replace("-", " ")} since removed` : null),
    details: details(e.data),
  }));
  return { rows, page, hasMore: events.length > AUDIT_PAGE_SIZE };
}

/** What the filters offer: the actions recorded in the team and the people who acted in it. */
export async function auditFilterChoices(teamId: string): Promise<{ actions: { value: string; label: string }[]; actors: { value: string; label: string }[] }> {
  const prisma = await db();
  const [actions, actors] = await Promise.all([
    prisma.auditEvent.findMany({ where: { teamId }, distinct: ["action"], select: { action: true }, orderBy: { action: "asc" } }),
    prisma.user.findMany({ where: { auditEvents: { some: { teamId } } }, select: { id: true, name: true, email: true }, orderBy: { name: "asc" } }),
  ]);
  return {
    actions: actions.map((a) => ({ value: a.action, label: actionLabel(a.action) })),
    actors: actors.map((u) => ({ value: u.id, label: `${u.name} (${u.email})` })),
  };
}

/** The most rows a CSV export holds (the newest that match). */
export const AUDIT_EXPORT_MAX = 10_000;

/** A CSV cell: quoted, and a leading = + - @ defused so a spreadsheet never runs it as a formula. */
function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}

/** The events matching `filter` (newest first, at most AUDIT_EXPORT_MAX) as CSV: time, who, action, target, details. */
export async function auditCsv(teamId: string, filter: AuditFilter = {}): Promise<string> {
  const prisma = await db();
  const events = await prisma.auditEvent.findMany({
    where: whereOf(teamId, filter),
    include: { actor: { select: { name: true } } },
    relationLoadStrategy: "query",
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: AUDIT_EXPORT_MAX,
  });
  const names = await targetNames(teamId, events);
  const lines = [["Time (UTC)", "Who", "Action", "What", "Target", "Details"].map(csvCell).join(",")];
  for (const e of events) {
    const target = names.get(`${e.targetType}:${e.targetId}`) ?? recordedName(e.data) ?? "";
    const detail = details(e.data)
      .map((d) => `${d.label}: ${d.value}`)
      .join("; ");
    lines.push([e.createdAt.toISOString(), actorName(e), e.action, actionLabel(e.action), target, detail].map(csvCell).join(","));
  }
  return lines.join("\r\n") + "\r\n";
}
