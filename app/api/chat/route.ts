// POST: run one turn of a chat and stream its UI message chunks. Only the new message (or an edit of
// one), a regenerate, a continue or approval decisions come from the client; history and tool inputs come from the database.
import { headers } from "next/headers";
import { handle } from "@/lib/http";
import { runTurn } from "@/lib/turn/turn";
import { turnInput } from "@/lib/turn/turn-input";
import { chosenTeamId } from "@/app/_server/team-choice";

export const POST = handle(async (req: Request) => {
  // The turn takes its slot first, then reads who asks and what (the session, the body, the rate limit;
  // lib/turn/turn-input.ts): a server at capacity turns requests away before it spends anything on them.
  const turn = await runTurn(async () => turnInput(req, { headers: await headers(), chosenTeamId: await chosenTeamId() }));
  return turn.response;
});
