// Export: a chat as Markdown or JSON, by anyone who may see it (lib/sharing/access.ts); all chats of a
// member of the team, as JSON, by an admin (for offboarding). What an auditor needs is in it: the
// branch the chat shows, and every other version of its messages (`otherVersions`, with `parentId` to
// place them); each tool call's outcome (done, error, denied, timed out, superseded, aborted) with who
// decided, when, the reason and the rule that asked or let it run; each answer's sources (the `[n]`
// markers' citations) and usage; each message's attachments with their address in the app (their bytes
// stay behind the access check). The Markdown form: export-markdown.ts (chatMarkdown).
import { config } from "../config";
import { db } from "../db/client";
import type { Attachment, Block, Citation, Message } from "../db/generated/client";
import { NotFound } from "../errors";
import { attachmentUrl } from "../format/attachment-url";
import { viewableChat } from "../sharing/access";
import type { TeamContext } from "../teams/team-context";
import { SUPERSEDED } from "../messages/tool-states";
import { citationView, type CitedPassage } from "../messages/citations";

export type CallOutcome = "done" | "error" | "denied" | "timed-out" | "superseded" | "aborted" | "waiting" | "decided" | "running";

export type ExportedApproval = {
  /** Who had to decide: the member, an admin; `auto`: a rule let it run without asking. */
  required?: "member" | "admin" | "auto";
  /** The rule that asked (or escalated, or let it run). */
  rule?: string;
  decision?: "approved" | "edited and approved" | "denied" | "timed out" | "superseded";
  /** The name of the person who decided (none for a time limit). */
  decidedBy?: string;
  decidedAt?: string;
  reason?: string;
  deadline?: string;
  /** The model's input, when a person edited it before approving (`input` is what ran). */
  originalInput?: unknown;
};

export type ExportBlock = {
  kind: string;
  text?: string | null;
  toolName?: string | null;
  input?: unknown;
  output?: unknown;
  errorText?: string | null;
  name?: string | null;
  mediaType?: string | null;
  url?: string | null;
  /** Tool calls: how the call ended, and its approval. */
  outcome?: CallOutcome;
  approval?: ExportedApproval;
};

export type ExportedMessage = {
  id: string;
  role: string;
  status: string;
  /** The message this one follows: versions of a message share it. */
  parentId: string | null;
  createdAt: string;
  model: string | null;
  blocks: ExportBlock[];
  /** A knowledge passage's citation also names its document's version, page and character range. */
  citations: { n: number; url: string; title: string | null; snippet: string | null; origin: string; passage?: CitedPassage }[];
  attachments: { name: string; mediaType: string; size: number; url: string }[];
  usage?: { inputTokens: number | null; outputTokens: number | null; cachedInputTokens: number | null; reasoningTokens: number | null; cost: number | null };
};

export type ExportedChat = {
  id: string;
  title: string | null;
  owner: string;
  createdAt: string;
  updatedAt: string;
  /** The branch the chat shows, oldest first. */
  messages: ExportedMessage[];
  /** Every other version (earlier answers, edited questions and what followed them), oldest first. */
  otherVersions: ExportedMessage[];
};

type BlockRow = Block & { decidedBy: { name: string } | null };
type MessageRow = Message & { blocks: BlockRow[]; citations: Citation[]; attachments: Pick<Attachment, "id" | "name" | "mediaType" | "size">[] };

function outcomeOf(b: BlockRow): CallOutcome {
  switch (b.status) {
    case "output-available":
      return "done";
    case "output-error":
      return "error";
    case "aborted":
      return "aborted";
    case "approval-requested":
      return "waiting";
    case "approval-responded":
      return "decided";
    case "output-denied":
      if (b.decisionReason === SUPERSEDED) return "superseded";
      // A time limit denies with nobody as the decider (approval-timeouts.ts).
      return !b.decidedById && b.decidedAt && b.decisionReason?.startsWith("no decision within") ? "timed-out" : "denied";
    default:
      return "running";
  }
}

function approvalOf(b: BlockRow, outcome: CallOutcome): ExportedApproval | undefined {
  if (!b.approvalId && !b.approvalBy) return undefined;
  const a: ExportedApproval = {};
  if (b.approvalBy === "member" || b.approvalBy === "admin" || b.approvalBy === "auto") a.required = b.approvalBy;
  if (b.approvalRule) a.rule = b.approvalRule;
  if (b.approved === true) a.decision = b.originalInput !== null ? "edited and approved" : "approved";
  if (b.approved === false) a.decision = outcome === "timed-out" ? "timed out" : outcome === "superseded" ? "superseded" : "denied";
  if (b.decidedBy?.name) a.decidedBy = b.decidedBy.name;
  if (b.decidedAt) a.decidedAt = b.decidedAt.toISOString();
  if (b.decisionReason) a.reason = b.decisionReason;
  if (b.approvalDeadline) a.deadline = b.approvalDeadline.toISOString();
  if (b.originalInput !== null) a.originalInput = b.originalInput;
  return a;
}

function blockOf(b: BlockRow): ExportBlock {
  const out: ExportBlock = {
    kind: b.kind,
    text: b.text,
    toolName: b.toolName,
    input: b.input ?? undefined,
    output: b.output ?? undefined,
    errorText: b.errorText,
    name: b.name,
    mediaType: b.mediaType,
    url: b.url,
  };
  if (b.kind === "tool") {
    out.outcome = outcomeOf(b);
    const approval = approvalOf(b, out.outcome);
    if (approval) out.approval = approval;
  }
  return out;
}

function messageOf(m: MessageRow, base: string): ExportedMessage {
  const hasUsage = m.inputTokens != null || m.outputTokens != null || m.cost != null;
  return {
    id: m.id,
    role: m.role,
    status: m.status,
    parentId: m.parentId,
    createdAt: m.createdAt.toISOString(),
    model: m.model,
    blocks: m.blocks.filter((b) => ["text", "reasoning", "tool", "file", "error"].includes(b.kind)).map(blockOf),
    citations: m.citations.map((c) => {
      const { passage } = citationView(c);
      // A passage's address is the app's viewer: absolute like an attachment's.
      const url = passage ? `${base}${c.url}` : c.url;
      return { n: c.ordinal, url, title: c.title, snippet: c.snippet, origin: c.origin, ...(passage ? { passage } : {}) };
    }),
    attachments: m.attachments.map((a) => ({ name: a.name, mediaType: a.mediaType, size: a.size, url: `${base}${attachmentUrl(a.id)}` })),
    ...(hasUsage
      ? {
          usage: {
            inputTokens: m.inputTokens,
            outputTokens: m.outputTokens,
            cachedInputTokens: m.cachedInputTokens,
            reasoningTokens: m.reasoningTokens,
            cost: m.cost,
          },
        }
      : {}),
  };
}

async function exportRows(chatIds: string[]): Promise<ExportedChat[]> {
  const prisma = await db();
  const chats = await prisma.chat.findMany({
    where: { id: { in: chatIds } },
    orderBy: { createdAt: "asc" },
    include: {
      user: { select: { name: true } },
      messages: {
        orderBy: { seq: "asc" },
        include: {
          blocks: { orderBy: { ordinal: "asc" }, include: { decidedBy: { select: { name: true } } } },
          citations: { orderBy: { ordinal: "asc" } },
          attachments: { orderBy: { createdAt: "asc" }, select: { id: true, name: true, mediaType: true, size: true } },
        },
      },
    },
  });
  // Links in the app: absolute when the app knows its address (PARLEY_URL), else from its root.
  const base = config().publicUrl ?? "";
  return chats.map((c) => ({
    id: c.id,
    title: c.title,
    owner: c.user.name,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
    messages: c.messages.filter((m) => m.onBranch).map((m) => messageOf(m, base)),
    otherVersions: c.messages.filter((m) => !m.onBranch).map((m) => messageOf(m, base)),
  }));
}

export async function exportChat(ctx: TeamContext, chatId: string): Promise<ExportedChat> {
  const chat = await viewableChat(ctx, chatId);
  return (await exportRows([chat.id]))[0];
}

/** An admin's export of all chats of a member of their team (404 for anyone not in it). */
export async function exportMemberChats(ctx: TeamContext, membershipId: string): Promise<ExportedChat[]> {
  const prisma = await db();
  const member = await prisma.membership.findFirst({ where: { id: membershipId, teamId: ctx.team.id }, select: { userId: true } });
  if (!member) throw NotFound();
  const chats = await prisma.chat.findMany({ where: { teamId: ctx.team.id, userId: member.userId }, select: { id: true } });
  return exportRows(chats.map((c) => c.id));
}
