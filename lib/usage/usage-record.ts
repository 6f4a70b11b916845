// The usage of one answer, written when the answer is stored: its cost at the prices its model has at
// that moment (a price changed later does not rewrite it), a usage record, and the turn's budget
// reservation given back in the same transaction (budgets.ts), so the month's count never has both
// or neither.
import type { PrismaClient } from "../db/generated/client";
import { costOf, type TokenCounts } from "./cost";
import { releaseHold } from "./budgets";
import { countAnswer } from "../observability/metrics";

export type AnswerUsage = Partial<TokenCounts>;

export type PricedAnswer = { modelRowId: string | null; cost: number | null; tokens: TokenCounts };

/** The answering model's row and the answer's cost (null when the model has no price). */
export async function priceAnswer(
  prisma: PrismaClient,
  providerId: string | undefined,
  model: string | undefined,
  usage: AnswerUsage | undefined,
): Promise<PricedAnswer> {
  const tokens: TokenCounts = {
    inputTokens: usage?.inputTokens ?? 0,
    outputTokens: usage?.outputTokens ?? 0,
    cachedInputTokens: usage?.cachedInputTokens ?? 0,
    reasoningTokens: usage?.reasoningTokens ?? 0,
  };
  const row =
    providerId && model
      ? await prisma.model.findUnique({
          where: { providerId_modelId: { providerId, modelId: model } },
          select: { id: true, inputPrice: true, cachedInputPrice: true, outputPrice: true },
        })
      : null;
  return { modelRowId: row?.id ?? null, cost: row ? costOf(tokens, row) : null, tokens };
}

export type UsageRecordInput = {
  teamId: string;
  userId: string;
  chatId: string;
  messageId: string;
  providerId: string | null;
  model: string;
  priced: PricedAnswer;
  /** The turn's budget reservation, released with the write. */
  reservationId?: string | null;
};

/** Writes the usage record (when the answer used any tokens) and releases the turn's reservation. */
export async function recordUsage(prisma: PrismaClient, r: UsageRecordInput): Promise<void> {
  const { tokens } = r.priced;
  if (!tokens.inputTokens && !tokens.outputTokens) return releaseHold(prisma, r.reservationId);
  await prisma.$transaction(async (tx) => {
    await tx.usageRecord.create({
      data: {
        teamId: r.teamId,
        userId: r.userId,
        chatId: r.chatId,
        messageId: r.messageId,
        providerId: r.providerId,
        model: r.model,
        modelRowId: r.priced.modelRowId,
        cost: r.priced.cost,
        ...tokens,
      },
    });
    await releaseHold(tx, r.reservationId);
  });
  countAnswer({ model: r.model, provider: r.providerId ?? "", ...tokens, cost: r.priced.cost });
}
