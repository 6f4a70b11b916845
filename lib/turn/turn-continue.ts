// Continue: the answers a person may let go on (stopped, interrupted, or ended at the step limit) and
// only the one at the end of the branch. `continuable` checks it when the turn loads (turn-load.ts),
// before anything is written; `reopen` opens the answer again when the turn claims the chat
// (turn-claim.ts), without the notice that it ended and with a new allowance of steps (answer-steps.ts).
import type { db } from "../db/client";
import type { MessageStatus } from "../db/generated/client";
import { Conflict } from "../errors";
import { endedAtStepLimit, restartAllowance, STEP_LIMIT_CODE } from "./answer-steps";
import { branchMessage, branchTip } from "../chat/branches";

type Client = Awaited<ReturnType<typeof db>>;

/** The answers Continue may go on with. */
const CONTINUABLE: MessageStatus[] = ["stopped", "interrupted"];
const NOT_CONTINUABLE = "Only a stopped answer at the end of the chat can be continued.";

/** Whether an answer can be continued: stopped, interrupted, or ended at its step limit. */
async function canContinue(prisma: Client, answer: { id: string; status: MessageStatus }): Promise<boolean> {
  return CONTINUABLE.includes(answer.status) || (answer.status === "done" && (await endedAtStepLimit(prisma, answer.id)));
}

/** Only a stopped (or interrupted, or step-limited) answer at the end of the branch can be continued (404 / 409). */
export async function continuable(prisma: Client, chatId: string, answerId: string): Promise<void> {
  const answer = await branchMessage(prisma, chatId, answerId, "assistant");
  const tip = await branchTip(prisma, chatId);
  if (tip?.id !== answer.id || !(await canContinue(prisma, answer))) throw Conflict(NOT_CONTINUABLE);
}

/**
 * Opens a stopped (or step-limited) answer again for its continuation, without the notice that it
 * ended, and with a new allowance of steps (answer-steps.ts); 409 when it cannot be continued now.
 */
export async function reopen(prisma: Client, chatId: string, answerId: string): Promise<string> {
  const answer = await prisma.message.findFirst({ where: { id: answerId, chatId, onBranch: true }, select: { id: true, status: true } });
  if (!answer || !(await canContinue(prisma, answer))) throw Conflict(NOT_CONTINUABLE);
  const opened = await prisma.message.updateMany({ where: { id: answerId, status: answer.status }, data: { status: "streaming", finishReason: null } });
  if (opened.count !== 1) throw Conflict(NOT_CONTINUABLE);
  await prisma.block.deleteMany({
    where: { messageId: answerId, kind: "data", name: "notice", OR: ["Stopped", STEP_LIMIT_CODE].map((code) => ({ data: { path: ["code"], equals: code } })) },
  });
  await restartAllowance(prisma, answerId);
  return answerId;
}
