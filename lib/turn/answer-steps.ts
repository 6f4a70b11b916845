// The step limit (PARLEY_STEP_LIMIT) counts every step of one answer, approvals included: an answer
// continued after decisions on its waiting calls gets only the steps left, counted from its stored
// step blocks (never from the client). Continue (after Stop, or after the limit) is a person's choice
// to let the answer go on: it starts a new allowance, so the message remembers in its `metadata` how
// many steps it had taken when it was last continued (`stepsFrom`).
import type { Block, Prisma } from "../db/generated/client";

type Client = Pick<Prisma.TransactionClient, "block" | "message">;
type Meta = { stepsFrom?: number };

const stepsFromOf = (metadata: unknown): number => {
  const n = (metadata as Meta | null)?.stepsFrom;
  return typeof n === "number" && n >= 0 ? n : 0;
};

/** The steps an answer has taken in its current allowance: its step blocks since it was last continued. */
export function stepsTaken(blocks: Pick<Block, "kind">[], metadata: unknown): number {
  return Math.max(0, blocks.filter((b) => b.kind === "step").length - stepsFromOf(metadata));
}

/** A Continue: the answer's allowance starts anew from the steps it has taken so far. */
export async function restartAllowance(prisma: Client, answerId: string): Promise<void> {
  const steps = await prisma.block.count({ where: { messageId: answerId, kind: "step" } });
  const message = await prisma.message.findUniqueOrThrow({ where: { id: answerId }, select: { metadata: true } });
  const metadata = { ...((message.metadata as Record<string, unknown> | null) ?? {}), stepsFrom: steps };
  await prisma.message.update({ where: { id: answerId }, data: { metadata } });
}

/** Steps this turn may take: what is left of the limit (at least one: a turn always asks the model once). */
export function stepsLeft(limit: number, taken: number): number {
  return Math.max(1, limit - taken);
}

/** The notice of an answer that ended at its step limit; Continue lets it go on. */
export const STEP_LIMIT_CODE = "StepLimit";
export const stepLimitText = (limit: number) =>
  `Step limit reached: the model used all ${limit} steps of this answer (approvals included). Continue to let it go on, or send a message.`;

/** Whether a finished answer ended at its step limit (its last block is the notice): Continue may go on with it. */
export async function endedAtStepLimit(prisma: Client, answerId: string): Promise<boolean> {
  const last = await prisma.block.findFirst({ where: { messageId: answerId }, orderBy: { ordinal: "desc" }, select: { kind: true, name: true, data: true } });
  return last?.kind === "data" && last.name === "notice" && (last.data as { code?: string } | null)?.code === STEP_LIMIT_CODE;
}
