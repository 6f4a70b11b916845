// Test helper run as a child process (tsx) by lib/usage/budgets.test.ts: opens the database of
// DATABASE_URL, says READY, and on GO tries HOLDS budget holds at once for the subject in SUBJECT
// (JSON), then prints how many were granted and refused. Not imported by the app.
import { db } from "@/lib/db/client";
import { BudgetExceeded, holdTurnBudget, type TurnSubject } from "@/lib/usage/budgets";

async function main() {
  const prisma = await db();
  await prisma.$queryRaw`SELECT 1`;
  const subject = JSON.parse(process.env.SUBJECT!) as TurnSubject;
  process.stdout.write("READY\n");
  await new Promise<void>((resolve) => process.stdin.once("data", () => resolve()));
  const results = await Promise.allSettled(Array.from({ length: Number(process.env.HOLDS) }, () => holdTurnBudget(prisma, subject)));
  const granted = results.filter((r) => r.status === "fulfilled").length;
  const refused = results.filter((r) => r.status === "rejected" && r.reason instanceof BudgetExceeded).length;
  process.stdout.write(`RESULT ${granted} ${refused}\n`);
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
