// An answer whose waiting calls were all decided somewhere other than the member's chat (an admin in
// the inbox, a time limit) goes on without the member: the server runs the continuation as the
// chat's owner, and consumes its stream itself; the member's open chat follows it from the database.
import { db } from "../db/client";
import { AppError } from "../errors";
import type { TeamContext } from "../teams/context";
import { runTurn, turnDeps, type TurnDeps } from "./turn";

/** Starts the continuation of the chat's last answer as its owner; false when it cannot start now (a turn runs, nothing to continue). */
export async function continueDecided(chatId: string, deps: TurnDeps = turnDeps()): Promise<boolean> {
  const prisma = await db();
  const chat = await prisma.chat.findUnique({ where: { id: chatId }, select: { teamId: true, user: { select: { id: true, name: true, email: true } } } });
  if (!chat) return false;
  const membership = await prisma.membership.findUnique({ where: { teamId_userId: { teamId: chat.teamId, userId: chat.user.id } }, include: { team: { select: { id: true, name: true } } } });
  if (!membership) return false;
  const team = { id: membership.team.id, name: membership.team.name, role: membership.role };
  const ctx: TeamContext = { user: chat.user, team, teams: [team] };
  try {
    const turn = await runTurn(async () => ({ ctx, request: { chatId, afterDecisions: true } }), deps);
    // Nobody reads this response: drain it (the store reads its own copy of the stream).
    void turn.response.body?.pipeTo(new WritableStream()).catch(() => {});
    await turn.stored.catch(() => undefined);
    return true;
  } catch (err) {
    if (err instanceof AppError && err.status < 500) return false;
    console.error(`[approvals] chat ${chatId}: the answer could not go on after its decisions`, err);
    return false;
  }
}
