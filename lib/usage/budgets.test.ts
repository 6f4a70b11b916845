// Usage, cost and budgets through real turns (aimock as the model, on PGlite and on PostgreSQL):
// answers priced at the prices of their moment, budgets refusing a turn before anything is stored
// (402 for cost, 429 for tokens) with when they reset, the 80% warning, a turn that crosses the limit
// finishing, and two turns at once — in one process and across two — never both taking the last of
// a budget.
import { spawn } from "node:child_process";
import type { LLMock } from "@copilotkit/aimock";
import { describe, expect, it } from "vitest";
import { db } from "../db/client";
import { loadMessagePage } from "../chat/history";
import { makeUser, rejection } from "@/test/support/test-app";
import { readChunks, storedAnswer, teamWithProvider, textOf, type SseChunk } from "@/test/support/test-turns";
import { DATABASES, runTurn, storedTurn, turnHarness } from "@/test/support/turn-harness";
import { applicableBudgets, BudgetExceeded, MIN_ESTIMATE_TOKENS, type TurnSubject } from "./budgets";
import { formatDay, nextMonthStart } from "./period";

let mock: LLMock;
// 1,000 input tokens (400 from the cache) and 500 output tokens (100 of them reasoning).
const USAGE = {
  prompt_tokens: 1000,
  completion_tokens: 500,
  prompt_tokens_details: { cached_tokens: 400 },
  completion_tokens_details: { reasoning_tokens: 100 },
};
const PRICES = { inputPrice: 2, cachedInputPrice: 0.5, outputPrice: 8 };
const ANSWER_COST = 0.0054; // (600 × 2 + 400 × 0.5 + 500 × 8) / 1e6

type Ctx = Awaited<ReturnType<typeof teamWithProvider>>;

async function turn(ctx: Ctx["ctx"], chatId: string, text: string) {
  const done = storedTurn();
  const chunks = await readChunks(await runTurn(ctx, { chatId, text }, { onStored: done.onStored }));
  return { chunks, stored: await done.promise };
}

const notices = (chunks: SseChunk[]) => chunks.filter((c) => c.type === "data-notice").map((c) => c.data as { code: string; message: string });

/** A team whose model has PRICES and whose member has spent `spent` this month already. */
async function pricedTeam(spent: { cost?: number; tokens?: number } = {}) {
  // OpenAI-compatible, at aimock's OpenRouter path: its usage carries the cached and reasoning token details.
  const t = await teamWithProvider(mock.url, "openai_compatible");
  const prisma = await db();
  await prisma.provider.update({ where: { id: t.provider.id }, data: { baseUrl: `${mock.url}/api/v1` } });
  await prisma.model.update({ where: { id: t.model.id }, data: PRICES });
  if (spent.cost != null || spent.tokens != null) {
    await prisma.usageRecord.create({
      data: {
        teamId: t.ctx.team.id,
        userId: t.ctx.user.id,
        model: t.model.modelId,
        modelRowId: t.model.id,
        inputTokens: spent.tokens ?? 0,
        cost: spent.cost ?? 0,
      },
    });
  }
  return t;
}

describe.each(DATABASES)("on $name", (driver) => {
  turnHarness((m) => (mock = m), { driver });

  it("prices an answer at its model's prices of that moment; a later price change leaves it as it was", async () => {
    mock.onMessage("price me", { content: "Priced.", usage: USAGE } as never);
    mock.onMessage("price me again", { content: "Priced again.", usage: USAGE } as never);
    const { ctx, chat, model } = await pricedTeam();
    const first = await turn(ctx, chat.id, "price me");
    const finish = first.chunks.find((c) => c.type === "finish") as { messageMetadata?: { usage?: Record<string, number> } };
    expect(finish.messageMetadata?.usage).toMatchObject({
      inputTokens: 1000,
      cachedInputTokens: 400,
      outputTokens: 500,
      reasoningTokens: 100,
      cost: ANSWER_COST,
    });
    const prisma = await db();
    const firstAnswer = await storedAnswer(chat.id);
    expect(firstAnswer.cost).toBe(ANSWER_COST);

    await prisma.model.update({ where: { id: model.id }, data: { inputPrice: 4, cachedInputPrice: 1, outputPrice: 16 } });
    await turn(ctx, chat.id, "price me again");
    const records = await prisma.usageRecord.findMany({ where: { teamId: ctx.team.id }, orderBy: { createdAt: "asc" } });
    expect(records.map((r) => r.cost)).toEqual([ANSWER_COST, ANSWER_COST * 2]);
    expect(records.every((r) => r.modelRowId === model.id)).toBe(true);
    // A reload shows the first answer's cost as it was stored.
    const page = await loadMessagePage(chat.id);
    expect(page.messages.find((m) => m.id === firstAnswer.id)?.metadata?.usage?.cost).toBe(ANSWER_COST);
  });

  it("warns at 80%, lets a turn that crosses the limit finish, then refuses with 402 and when the budget resets, storing nothing", async () => {
    mock.onMessage("near the edge", { content: "A whole answer, to the last word.", usage: USAGE } as never);
    const { ctx, chat } = await pricedTeam({ cost: 0.0085 });
    const prisma = await db();
    await prisma.budget.create({ data: { teamId: ctx.team.id, scope: "member_default", metric: "cost", limit: 0.01 } });

    const crossing = await turn(ctx, chat.id, "near the edge");
    expect(notices(crossing.chunks).find((n) => n.code === "BudgetWarning")?.message).toMatch(/Your monthly budget is 85% used \(\$0\.0085 of \$0\.01\)/);
    expect(textOf(crossing.chunks)).toBe("A whole answer, to the last word.");
    expect(crossing.stored.status).toBe("done");

    const before = await prisma.message.count({ where: { chatId: chat.id } });
    const refused = await rejection(runTurn(ctx, { chatId: chat.id, text: "one more" }));
    expect(refused).toBeInstanceOf(BudgetExceeded);
    expect(refused.status).toBe(402);
    expect(refused.message).toBe(
      `Your monthly budget of $0.01 is used up until ${formatDay(nextMonthStart(new Date()))}. Ask an admin of your team to raise it.`,
    );
    expect(await prisma.message.count({ where: { chatId: chat.id } })).toBe(before);
    expect(await prisma.budgetReservation.count({ where: { teamId: ctx.team.id } })).toBe(0);

    // An override for this member replaces the default.
    await prisma.budget.create({ data: { teamId: ctx.team.id, scope: "member", userId: ctx.user.id, metric: "cost", limit: 1 } });
    mock.onMessage("with my own budget", { content: "Allowed.", usage: USAGE } as never);
    expect(textOf((await turn(ctx, chat.id, "with my own budget")).chunks)).toBe("Allowed.");

    // A model's token budget refuses with 429.
    await prisma.budget.create({
      data: {
        teamId: ctx.team.id,
        scope: "model",
        modelRowId: (await prisma.chat.findUniqueOrThrow({ where: { id: chat.id }, include: { team: true } })).team.defaultModelId,
        metric: "tokens",
        limit: 1000,
      },
    });
    const tokens = await rejection(runTurn(ctx, { chatId: chat.id, text: "one more" }));
    expect(tokens.status).toBe(429);
    expect(tokens.message).toMatch(/^The monthly budget for gpt-test of 1,000 tokens is used up until /);
  });

  it("counts no expired reservation (a crashed turn's), and a turn that gives its own back clears it", async () => {
    mock.onMessage("after a crash", { content: "Still allowed.", usage: USAGE } as never);
    const { ctx, chat, model } = await pricedTeam({ cost: 0.004 });
    const prisma = await db();
    await prisma.budget.create({ data: { teamId: ctx.team.id, scope: "team", metric: "cost", limit: 0.01 } });
    // Had it not expired, this reservation would use the budget up.
    const expired = { teamId: ctx.team.id, userId: ctx.user.id, modelRowId: model.id, tokens: 1, cost: 1, expiresAt: new Date(Date.now() - 1000) };
    await prisma.budgetReservation.create({ data: expired });
    // One that has not expired does.
    const live = await prisma.budgetReservation.create({ data: { ...expired, expiresAt: new Date(Date.now() + 60_000) } });
    expect((await rejection(runTurn(ctx, { chatId: chat.id, text: "after a crash" }))).status).toBe(402);
    await prisma.budgetReservation.delete({ where: { id: live.id } });
    const { chunks, stored } = await turn(ctx, chat.id, "after a crash");
    expect(textOf(chunks)).toBe("Still allowed.");
    expect(stored.status).toBe("done");
    expect(await prisma.budgetReservation.count({ where: { teamId: ctx.team.id } })).toBe(0);
  });

  it("warns from 80% of the budget used, as the warning says: not at 45% because the next answer's estimate would pass 80%", async () => {
    mock.onMessage(/^halfway/, { content: "Still room.", usage: USAGE } as never);
    const { ctx, chat } = await pricedTeam({ cost: 0.0045 });
    const prisma = await db();
    await prisma.budget.create({ data: { teamId: ctx.team.id, scope: "member_default", metric: "cost", limit: 0.01 } });
    // One answer's estimate at these prices (MIN_ESTIMATE_TOKENS) is the whole budget: 45% + estimate is past 80%.
    const quiet = await turn(ctx, chat.id, "halfway there");
    expect(notices(quiet.chunks).map((n) => n.code)).not.toContain("BudgetWarning");
    expect(textOf(quiet.chunks)).toBe("Still room.");
    // 0.0045 + 0.0054 = 99% used now: the next answer is warned.
    const warned = await turn(ctx, chat.id, "halfway again");
    expect(notices(warned.chunks).find((n) => n.code === "BudgetWarning")?.message).toMatch(/^Your monthly budget is 99% used \(\$0\.0099 of \$0\.01\)/);
  });

  it("lets only one of two turns that start at once take the last of a team budget", async () => {
    mock.onMessage(/^at once/, { content: "Only one of us.", usage: USAGE } as never);
    const { ctx, chat } = await pricedTeam({ tokens: 9_000 });
    const prisma = await db();
    // The limit is below both one answer's reservation (MIN_ESTIMATE_TOKENS) and one answer's real
    // usage (1,500 tokens), so the second turn is refused however the two interleave: it sees either
    // the first's reservation or, if the first already finished, its stored usage.
    expect(USAGE.prompt_tokens + USAGE.completion_tokens).toBeLessThan(MIN_ESTIMATE_TOKENS);
    await prisma.budget.create({
      data: { teamId: ctx.team.id, scope: "team", metric: "tokens", limit: 9_000 + USAGE.prompt_tokens + USAGE.completion_tokens },
    });
    const other = await prisma.chat.create({ data: { teamId: ctx.team.id, userId: ctx.user.id } });
    const results = await Promise.allSettled([runTurn(ctx, { chatId: chat.id, text: "at once 1" }), runTurn(ctx, { chatId: other.id, text: "at once 2" })]);
    const started = results.filter((r) => r.status === "fulfilled");
    const refused = results.filter((r) => r.status === "rejected").map((r) => (r as PromiseRejectedResult).reason as BudgetExceeded);
    expect(started).toHaveLength(1);
    expect(refused.map((e) => [e.code, e.status])).toEqual([["BudgetExceeded", 429]]);
    expect(textOf(await readChunks(started[0].value))).toBe("Only one of us.");
  });

  it.runIf(driver.name === "PostgreSQL")(
    "holds across two processes: of eight holds at once, one is granted",
    async () => {
      const { ctx, model } = await pricedTeam({ tokens: 9_000 });
      const prisma = await db();
      await prisma.budget.create({ data: { teamId: ctx.team.id, scope: "team", metric: "tokens", limit: 9_000 + MIN_ESTIMATE_TOKENS - 1 } });
      const subject: TurnSubject = { teamId: ctx.team.id, userId: ctx.user.id, modelRowId: model.id, modelName: model.displayName, prices: PRICES };
      const child = spawn(process.execPath, ["--import", "tsx", "test/support/budget-child.ts"], {
        env: { ...process.env, SUBJECT: JSON.stringify(subject), HOLDS: "4" },
        stdio: ["pipe", "pipe", "inherit"],
      });
      let out = "";
      const line = (re: RegExp) =>
        new Promise<RegExpMatchArray>((resolve, reject) => {
          const check = () => {
            const m = out.match(re);
            if (m) resolve(m);
          };
          child.stdout.on("data", (d: Buffer) => {
            out += d.toString();
            check();
          });
          child.once("exit", (code) => reject(new Error(`child exited ${code}: ${out}`)));
          check();
        });
      await line(/READY/);
      const { holdTurnBudget } = await import("./budgets");
      child.stdin.write("GO\n");
      const mine = await Promise.allSettled(Array.from({ length: 4 }, () => holdTurnBudget(prisma, subject)));
      const [, granted, refusedThere] = await line(/RESULT (\d+) (\d+)/);
      const grantedHere = mine.filter((r) => r.status === "fulfilled").length;
      expect(grantedHere + Number(granted)).toBe(1);
      expect(mine.filter((r) => r.status === "rejected").length + Number(refusedThere)).toBe(7);
      expect(await prisma.budgetReservation.count({ where: { teamId: ctx.team.id } })).toBe(1);
    },
    60_000,
  );
});

describe("applicableBudgets", () => {
  const b = (scope: "team" | "member_default" | "member" | "model", extra: { userId?: string; modelRowId?: string } = {}) => ({
    id: scope + (extra.userId ?? extra.modelRowId ?? ""),
    scope,
    userId: extra.userId ?? null,
    modelRowId: extra.modelRowId ?? null,
    metric: "cost" as const,
    limit: 1,
  });
  it("takes the team's, the member's override instead of the default, and the model's", () => {
    const rows = [b("team"), b("member_default"), b("member", { userId: "u1" }), b("model", { modelRowId: "m1" }), b("model", { modelRowId: "m2" })];
    expect(applicableBudgets(rows, { userId: "u1", modelRowId: "m1" }).map((r) => r.id)).toEqual(["team", "memberu1", "modelm1"]);
    expect(applicableBudgets(rows, { userId: "u2", modelRowId: "m2" }).map((r) => r.id)).toEqual(["team", "member_default", "modelm2"]);
  });
  it("is empty without budgets (a turn then costs one query)", async () => {
    expect(applicableBudgets([], { userId: (await Promise.resolve({ id: "u" })).id, modelRowId: "m" })).toEqual([]);
  });
});
void makeUser;
