// Questions MCP servers ask during a tool call (elicitation), as a human-in-the-loop step of the call:
// stored as a row (so the form survives a reload, and any instance can take the answer), shown in the
// tool's block through the call's running output, answered only by the chat's owner, checked on the
// server against the requested schema, audited, and handed back to the waiting call. The wait reads
// the row (woken at once in this process, polled across instances) until the call's own time limit;
// a question nobody answers in time is marked expired and the call ends with a Timeout.
import crypto from "node:crypto";
import { z } from "zod";
import { audited } from "../audit";
import { db } from "../db/client";
import type { Elicitation, Prisma } from "../db/generated/client";
import { Conflict, Invalid, NotFound } from "../errors";
import { checkAnswer, formOf, type ElicitField } from "../mcp/elicitation-schema";
import type { Elicit, ElicitationAnswer, ElicitationRequest } from "../mcp/elicitation-routing";
import type { TeamContext } from "../teams/team-context";

/** What the tool block shows of a waiting question. */
export type ElicitationView = {
  id: string;
  mode: "form" | "url";
  message: string;
  fields?: ElicitField[];
  /** Properties of the schema the form cannot show (the server gets what the form can). */
  unsupported?: string[];
  url?: string;
  /** The URL's host, shown prominently: the member sees where the link goes before opening it. */
  domain?: string;
  expiresAt: string;
};

const POLL_MS = 1_000;
const WAKE = Symbol.for("parley.elicitationWake");
const wakers = ((globalThis as { [WAKE]?: Map<string, () => void> })[WAKE] ??= new Map());

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

export function viewOf(row: Pick<Elicitation, "id" | "mode" | "message" | "requestedSchema" | "url" | "expiresAt">): ElicitationView {
  const base = { id: row.id, message: row.message, expiresAt: row.expiresAt.toISOString() };
  if (row.mode === "url") return { ...base, mode: "url", url: row.url ?? "", domain: hostOf(row.url ?? "") };
  const form = formOf(row.requestedSchema);
  return { ...base, mode: "form", fields: form.fields, ...(form.unsupported.length ? { unsupported: form.unsupported } : {}) };
}

/** Only http(s) links are offered to open: a server's `javascript:` or `file:` URL is refused. */
function openableUrl(url: string): boolean {
  try {
    return ["http:", "https:"].includes(new URL(url).protocol);
  } catch {
    return false;
  }
}

/** The answer stored on a row, as the server receives it. */
function answerOf(row: Pick<Elicitation, "status" | "content" | "mode">): ElicitationAnswer | undefined {
  if (row.status === "accept") return row.mode === "form" ? { action: "accept", content: (row.content ?? {}) as Record<string, string> } : { action: "accept" };
  if (row.status === "decline" || row.status === "cancel") return { action: row.status };
  if (row.status === "expired") return { action: "cancel" };
  return undefined;
}

/** Waits until the row is answered, or `signal` ends the wait (then the question is marked expired). */
async function waitForAnswer(id: string, signal: AbortSignal): Promise<ElicitationAnswer> {
  const prisma = await db();
  for (;;) {
    const row = await prisma.elicitation.findUnique({ where: { id }, select: { status: true, content: true, mode: true } });
    const answer = row ? answerOf(row) : { action: "cancel" as const };
    if (answer) return answer;
    const woke = await new Promise<boolean>((resolve) => {
      const done = (v: boolean) => {
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
        wakers.delete(id);
        resolve(v);
      };
      const onAbort = () => done(false);
      const timer = setTimeout(() => done(true), POLL_MS);
      wakers.set(id, () => done(true));
      if (signal.aborted) onAbort();
      else signal.addEventListener("abort", onAbort, { once: true });
    });
    if (!woke) {
      await prisma.elicitation.updateMany({ where: { id, status: "pending" }, data: { status: "expired" } });
      const after = await prisma.elicitation.findUnique({ where: { id }, select: { status: true, content: true, mode: true } });
      return (after && answerOf(after)) ?? { action: "cancel" };
    }
  }
}

/** The call whose server asks: where to store the question, how long it may wait, how to show it. */
export type AskingCall = {
  chatId: string;
  messageId: string;
  toolCallId: string;
  serverId: string;
  expiresAt: Date;
  show: (view: ElicitationView | undefined) => void;
};

/** The Elicit of one tool call: stores the question, shows it in the call's block, waits for the owner. */
export function askOwner(call: AskingCall): Elicit {
  return async (request: ElicitationRequest, signal: AbortSignal) => {
    if (request.mode === "url" && !openableUrl(request.url)) return { action: "decline" };
    const prisma = await db();
    const row = await prisma.elicitation.create({
      data: {
        chatId: call.chatId,
        messageId: call.messageId,
        toolCallId: call.toolCallId,
        serverId: call.serverId,
        mode: request.mode,
        message: request.message.slice(0, 4000),
        requestedSchema: request.mode === "form" ? (request.requestedSchema as Prisma.InputJsonValue) : undefined,
        url: request.mode === "url" ? request.url : null,
        urlId: request.mode === "url" ? (request.elicitationId ?? null) : null,
        expiresAt: call.expiresAt,
      },
    });
    // The view from the request as sent: the stored schema (JSONB) does not keep the fields' order.
    call.show(viewOf({ ...row, requestedSchema: request.mode === "form" ? (request.requestedSchema as Prisma.JsonValue) : null }));
    try {
      return await waitForAnswer(row.id, signal);
    } finally {
      call.show(undefined);
    }
  };
}

const answerValue = z.union([z.string().max(10_000), z.number(), z.boolean(), z.array(z.string().max(1_000)).max(100)]);
export const answerSchema = z.object({
  action: z.enum(["accept", "decline", "cancel"]),
  content: z.record(z.string().max(200), answerValue).optional(),
});
export type AnswerInput = z.infer<typeof answerSchema>;

const hash = (v: unknown) =>
  crypto
    .createHash("sha256")
    .update(JSON.stringify(v ?? null))
    .digest("hex");

/**
 * The owner's answer to a waiting question: 404 for a question of another member or team, 409 once
 * it is answered or expired, 400 (with a message per field) when the content does not fit the schema.
 * The event records the action and a hash of the content, never the content.
 */
export async function answerElicitation(ctx: TeamContext, id: string, input: AnswerInput): Promise<{ status: string }> {
  const prisma = await db();
  const row = await prisma.elicitation.findFirst({ where: { id, chat: { teamId: ctx.team.id, userId: ctx.user.id } } });
  if (!row) throw NotFound("No question with this id is waiting in your chats.");
  if (row.status !== "pending") throw Conflict(row.status === "expired" ? "This question has expired." : "This question was already answered.");
  if (row.expiresAt.getTime() < Date.now()) throw Conflict("This question has expired.");
  let content: Prisma.InputJsonValue | undefined;
  if (input.action === "accept" && row.mode === "form") {
    const checked = checkAnswer(row.requestedSchema, input.content ?? {});
    if (!checked.ok) throw Invalid("Some answers do not fit what the server asked for.", checked.errors);
    content = checked.content;
  }
  await audited(
    ctx,
    async (tx) => {
      const res = await tx.elicitation.updateMany({
        where: { id, status: "pending" },
        data: { status: input.action, content, answeredById: ctx.user.id, answeredAt: new Date() },
      });
      if (res.count !== 1) throw Conflict("This question was already answered.");
    },
    {
      action: `elicitation.${input.action}`,
      targetType: "tool-call",
      targetId: row.toolCallId,
      data: { chatId: row.chatId, serverId: row.serverId, mode: row.mode, ...(content ? { fields: Object.keys(content), contentHash: hash(content) } : {}) },
    },
  );
  wakers.get(id)?.();
  return { status: input.action };
}
