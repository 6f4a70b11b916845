// Answers that go on without their member, run by the server as the chat's owner, which consumes the
// turn's stream itself (the member's open chat follows it from the database, a reload resumes it):
// - an answer whose waiting calls were all decided somewhere other than the member's chat (an admin in
//   the inbox or from an emailed link, a time limit), or by the member while an admin's call waited;
// - an answer another instance was writing when it stopped (stop-turns.ts): stored as far as it was
//   shown and marked interrupted there, it is continued here as Continue would.
import { z } from "zod";
import { db } from "../db/client";
import { AppError } from "../errors";
import type { TeamContext } from "../teams/team-context";
import { decisionSchema, recordDecisions, type Decision } from "../approvals/approvals";
import { getChat } from "../chat/chats";
import { HANDED_OVER_STORE_MS } from "../messages/handed-over";
import { runTurn, turnDeps, type TurnDeps, type TurnRequest } from "./turn";

/** Runs `request` as the chat's owner; false when it cannot start now (a turn runs, nothing to continue). */
async function runAsOwner(request: TurnRequest, what: string, deps: TurnDeps): Promise<boolean> {
  const prisma = await db();
  const chat = await prisma.chat.findUnique({
    where: { id: request.chatId },
    select: { teamId: true, user: { select: { id: true, name: true, email: true } } },
  });
  if (!chat) return false;
  const membership = await prisma.membership.findUnique({
    where: { teamId_userId: { teamId: chat.teamId, userId: chat.user.id } },
    include: { team: { select: { id: true, name: true } } },
  });
  if (!membership) return false;
  const team = { id: membership.team.id, name: membership.team.name, role: membership.role };
  const ctx: TeamContext = { user: chat.user, team, teams: [team] };
  try {
    const turn = await runTurn(async () => ({ ctx, request }), deps);
    // Nobody reads this response: drain it (the store reads its own copy of the stream).
    void turn.response.body?.pipeTo(new WritableStream()).catch(() => {});
    await turn.stored.catch(() => undefined);
    return true;
  } catch (err) {
    if (err instanceof AppError && err.status < 500) {
      // Another instance or a person took the chat first, or there is nothing to go on with: said, not an error.
      console.warn(`[turn] chat ${request.chatId}: ${what}: ${err.message}`);
      return false;
    }
    console.error(`[turn] chat ${request.chatId}: ${what}`, err);
    return false;
  }
}

/** Starts the continuation of the chat's last answer after its decisions, as its owner. */
export function continueDecided(chatId: string, deps: TurnDeps = turnDeps()): Promise<boolean> {
  return runAsOwner({ chatId, afterDecisions: true }, "the answer could not go on after its decisions", deps);
}

export const memberDecisionsSchema = z.object({ approvals: z.array(decisionSchema.strict()).min(1).max(50) }).strict();

/**
 * The member decides their calls of an answer in which other calls wait for an admin: stored (with
 * the same checks as in a turn), and the answer goes on once nothing waits any more — at once when an
 * admin decided the rest first.
 */
export async function decideWhileWaiting(
  ctx: TeamContext,
  chatId: string,
  decisions: Decision[],
  continueAnswer: (chatId: string) => Promise<boolean> = continueDecided,
): Promise<{ remaining: number; continues: boolean; done?: Promise<boolean> }> {
  await getChat(ctx, chatId);
  const { remaining } = await recordDecisions(ctx, chatId, decisions);
  if (remaining) return { remaining, continues: false };
  return { remaining, continues: true, done: continueAnswer(chatId) };
}

/** Continues an answer another instance handed over when it stopped (false: another instance took it, or it cannot go on). */
export async function continueHandedOver(chatId: string, messageId: string, deps: TurnDeps = turnDeps()): Promise<boolean> {
  // A busy stopping instance may still be storing it (or have died doing so): it is continued once stored.
  console.log(`[handoff] chat ${chatId}: continuing the answer another instance handed over`);
  const seen = await endedAndFree(chatId, messageId, deps, HANDED_OVER_STORE_MS);
  if (seen !== true) {
    console.warn(`[handoff] chat ${chatId}: not continued: ${seen}`);
    return false;
  }
  return runAsOwner({ chatId, continue: messageId }, "the answer handed over by a stopping instance could not go on", deps);
}

/**
 * Waits (checking every 100 ms) until the message is stored as ended and its chat is free: released by
 * the stopping side (in the same write that ends the message, store-turn.ts) and held by no turn of this
 * process. True then; otherwise what it last saw (the message gone, or what still holds it after `ms`).
 */
async function endedAndFree(chatId: string, messageId: string, deps: TurnDeps, ms: number): Promise<true | string> {
  const [prisma, registry] = await Promise.all([db(), deps.registry()]);
  for (const deadline = Date.now() + ms; ;) {
    const row = await prisma.message.findUnique({ where: { id: messageId }, select: { status: true, chat: { select: { activeStreamId: true } } } });
    if (!row) return "the message is gone";
    const here = registry.local.has(chatId);
    if (row.status !== "streaming" && !row.chat.activeStreamId && !here) return true;
    if (Date.now() > deadline)
      return `after ${ms / 1000} s the message is ${row.status}, the chat's stream ${row.chat.activeStreamId ?? "none"}, a turn here: ${here}`;
    await new Promise((r) => setTimeout(r, 100));
  }
}
