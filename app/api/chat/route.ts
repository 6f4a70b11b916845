// POST: run one turn of a chat and stream its UI message chunks. Only the new message, a regenerate
// or approval decisions come from the client; history and tool inputs come from the database.
import { handle } from "@/lib/http";
import { runTurn } from "@/lib/chat/run-turn";
import { chatBodyLimit, chatRequestSchema, messageText } from "@/lib/chat/request";
import { chatRateLimit, withTurnSlot } from "@/lib/chat/rate-limits";
import { readJson } from "@/lib/security/limits";
import { requireTeamFromSessionCookie } from "@/lib/teams/context";

export const POST = handle((req: Request) =>
  // The slot first: a server at capacity turns requests away before it spends anything on them.
  withTurnSlot(async (slot) => {
    const ctx = await requireTeamFromSessionCookie();
    const body = await readJson(req, chatRequestSchema, chatBodyLimit());
    const text = messageText(body);
    await chatRateLimit().hit(ctx.user.id);
    const turn = {
      chatId: body.id,
      text,
      regenerate: body.trigger === "regenerate-message" ? body.messageId : undefined,
      modelId: body.modelId,
      decisions: body.approvals,
    };
    return runTurn(ctx, turn, { slot });
  }),
);
