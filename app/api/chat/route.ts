// POST: run one turn of a chat and stream its UI message chunks. Only the new message (or an edit of
// one), a regenerate, a continue or approval decisions come from the client; history and tool inputs come from the database.
import { handle } from "@/lib/http";
import { runTurn } from "@/lib/turn/turn";
import { chatBodyLimit, chatRequestSchema, messageText, rateLimitFor } from "@/lib/turn/request";
import { readJson } from "@/lib/security/limits";
import { requireTeamFromSessionCookie } from "@/app/_server/caller";

export const POST = handle(async (req: Request) => {
  // The turn takes its slot first, then reads who asks and what: a server at capacity turns requests
  // away before it spends anything on them.
  const turn = await runTurn(async () => {
    const ctx = await requireTeamFromSessionCookie();
    const body = await readJson(req, chatRequestSchema, chatBodyLimit());
    const text = messageText(body);
    // Messages count against PARLEY_CHAT_RATE_LIMIT; decisions on approval cards against their own limit.
    await rateLimitFor(body).hit(ctx.user.id);
    const request = {
      chatId: body.id,
      text,
      regenerate: body.trigger === "regenerate-message" ? body.messageId : undefined,
      edit: body.editOf,
      continue: body.continueOf,
      modelId: body.modelId,
      decisions: body.approvals,
      attachments: body.attachments,
      newChat: body.newChat && text ? { tools: body.tools, projectId: body.projectId } : undefined,
      resources: text ? body.resources : undefined,
    };
    return { ctx, request };
  });
  return turn.response;
});
