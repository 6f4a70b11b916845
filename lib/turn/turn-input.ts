// Who asks, and what (POST /api/chat's part of a turn's load, turn.ts): the session, the body, the rate
// limit, read in as few round trips as the answers allow, since every answer waits on them.
//
// Side by side, once the body names the chat: the session (what lib/teams/session-teams.ts reads: the
// session row of a correctly signed cookie, lib/auth/session-token.ts, that has not expired) with its
// user's memberships; the chat by its id, with its models and its team's budgets (turn-chat.ts); and
// a new message's history. The chat counts only when it is the caller's, in the team they act in
// (else 404, as `chatForTurn` says of any chat that is not the caller's); nothing read is used before
// the session holds, and a request without a cookie this server signed reads nothing.
//
// The refusals come in the order they always did: 401 (no valid session), 404 (no team), the body's
// (415, 413, 400), then the rate limit (429); loadTurn's follow.
import { db } from "../db/client";
import { Unauthorized } from "../errors";
import { readJson } from "../security/limits";
import { signedSessionToken } from "../auth/session-token";
import { pickTeam, type CallerRequest } from "../teams/context";
import { sessionTeams } from "../teams/session-teams";
import { chatBodyLimit, chatRequestSchema, messageText, rateLimitFor, type ChatRequest } from "./request";
import { earlyHistory, type TurnRequest } from "./turn-load";
import { turnChatInclude } from "./turn-chat";
import type { TurnInput } from "./turn";

/** The turn a request body asks for. */
function turnRequest(body: ChatRequest): TurnRequest {
  const text = messageText(body);
  return {
    chatId: body.id,
    text,
    regenerate: body.trigger === "regenerate-message" ? body.messageId : undefined,
    edit: body.editOf,
    continue: body.continueOf,
    modelId: body.modelId,
    decisions: body.approvals,
    attachments: body.attachments,
    newChat: body.newChat && text ? { tools: body.tools, projectId: body.projectId, knowledge: body.knowledge } : undefined,
    resources: text ? body.resources : undefined,
  };
}

/** Reads POST /api/chat's caller and body (see the header); throws the refusal an answer starts with. */
export async function turnInput(req: Request, caller: CallerRequest): Promise<TurnInput> {
  const token = await signedSessionToken(caller.headers);
  if (!token) throw Unauthorized();
  // The body's refusal waits until the session is known to be valid (401 first, as always).
  const read = await readJson(req, chatRequestSchema, chatBodyLimit()).then(
    (body) => ({ body, request: turnRequest(body) }),
    (error: unknown) => ({ error }),
  );
  const chatId = "request" in read ? read.request.chatId : undefined;
  const history = "request" in read ? earlyHistory(read.request) : undefined;
  // Unused when the session or the body is refused: its failure is nobody's.
  history?.catch(() => {});
  const prisma = await db();
  // Side by side: the session, and the chat by its id (anyone's: chatForTurn uses it only when it is the caller's).
  // One query joining both took longer than the two (PostgreSQL, ~3 ms against ~2 ms).
  const [session, chat] = await Promise.all([sessionTeams(token), chatId ? prisma.chat.findUnique({ where: { id: chatId }, include: turnChatInclude }) : null]);
  if (!session) throw Unauthorized();
  const ctx = pickTeam(session.user, session.teams, caller.chosenTeamId);
  if ("error" in read) throw read.error;
  // Messages count against PARLEY_CHAT_RATE_LIMIT; decisions on approval cards against their own limit.
  await rateLimitFor(read.body).hit(ctx.user.id);
  return { ctx, request: read.request, early: { chat, history } };
}
