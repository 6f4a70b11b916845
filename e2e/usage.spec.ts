// Usage, cost and budgets in Chromium against the production build. In a team of its own, an admin adds
// an OpenAI-compatible provider (aimock) and enables gpt-4.1-mini from its list: the model gets the
// price table's suggested prices. Two scripted answers with known token counts show their tokens and
// cost under each answer and the chat's running total; Admin → Usage shows them in charts and the
// table (axe-checked in light and dark) and exports them as CSV; the member's Settings shows their own.
// A team budget set below what was spent refuses the next message: the member sees why and until when,
// the API answers 402, the message is not stored and stays in the box; once an admin raises the budget
// it is sent as it is. The member's warning comes at 80% used, not before.
import fs from "node:fs";
import { expect, test } from "@playwright/test";
import { THEMES, applyTheme, violations } from "./axe";
import { createTeam } from "./admin-steps";
import { ADMIN, SIGNED_OUT, answer, chooseOption, newChat, send, signIn } from "./helpers";

test.use(SIGNED_OUT);

const UPSTREAM = `http://127.0.0.1:${Number(process.env.E2E_UPSTREAM_PORT || 4011)}/v1`;
const run = Date.now().toString(36);

test("answers show tokens and cost; Admin → Usage charts, tables and exports them; a used-up budget refuses the next turn", async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, ADMIN.email, ADMIN.password);
  await expect(page).toHaveURL(/\/chat$/);
  await createTeam(page, `Usage ${run}`);

  // A provider whose listed gpt-4.1-mini gets the dated price table's prices when enabled.
  await page.goto("/admin/providers");
  const form = page.getByRole("form", { name: "New provider" });
  await form.getByLabel("Name").fill(`Priced ${run}`);
  await chooseOption(form.getByLabel("Kind"), "OpenAI-compatible (Ollama, vLLM, LM Studio, OpenRouter)");
  await form.getByLabel("Base URL").fill(UPSTREAM);
  await form.getByLabel("API key").fill("sk-e2e-usage-0000");
  await form.getByRole("button", { name: "Add provider" }).click();
  await expect(page).toHaveURL(/\/admin\/providers\/[a-z0-9]+/);
  await page.getByRole("button", { name: "Fetch models" }).click();
  const offered = page.getByRole("form", { name: "Models the provider offers" });
  await offered.getByLabel("gpt-4.1-mini").check();
  await offered.getByRole("button", { name: "Enable selected" }).click();
  await expect(offered.getByRole("status")).toHaveText("1 model enabled.");
  await page.getByRole("list", { name: "Models" }).getByText("gpt-4.1-mini").first().click();
  const edit = page.getByRole("form", { name: "Edit gpt-4.1-mini" });
  await expect(edit.getByLabel("Input", { exact: true })).toHaveValue("0.4");
  await expect(edit.getByLabel("Output", { exact: true })).toHaveValue("1.6");

  // Two answers with known token counts: 120,000 + 30,000 and 80,000 + 20,000 at $0.40 / $1.60 per million.
  await newChat(page);
  await chooseOption(page.getByLabel("Model"), "gpt-4.1-mini");
  await send(page, "Usage: the first question");
  await expect(answer(page)).toContainText("The first priced answer.");
  await expect(answer(page).getByTestId("answer-usage")).toHaveText("Usage: 120,000 input tokens · 30,000 output tokens · $0.10");
  await send(page, "Usage: the second question");
  await expect(answer(page)).toContainText("The second priced answer.");
  await expect(answer(page).getByTestId("answer-usage")).toHaveText("Usage: 80,000 input tokens · 20,000 output tokens · $0.06");
  await expect(page.getByTestId("chat-usage-total")).toHaveText("This chat so far: 250,000 tokens · $0.16");
  const chatUrl = page.url();
  await page.reload();
  await expect(page.getByTestId("chat-usage-total")).toHaveText("This chat so far: 250,000 tokens · $0.16");

  // Admin → Usage (this month by default): the summary, the charts and the table.
  await page.goto("/admin/usage");
  await expect(page.getByRole("navigation", { name: "Admin sections" }).getByRole("link", { name: "Usage" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByTestId("usage-summary")).toContainText("2 answers, 250,000 tokens, $0.16.");
  for (const chart of ["Tokens per day", "Cost per day", "By member", "By model", "By provider"]) {
    await expect(page.getByRole("figure", { name: chart }).locator(".recharts-bar-rectangle").first()).toBeVisible();
  }
  const table = page.getByRole("table", { name: "Usage by day" });
  const row = table.getByRole("row").filter({ hasText: "gpt-4.1-mini" });
  await expect(row).toContainText(ADMIN.name);
  await expect(row).toContainText("200,000");
  await expect(row).toContainText("$0.16");
  for (const theme of THEMES) {
    await applyTheme(page, theme);
    await page.reload();
    expect(await violations(page)).toEqual([]);
  }
  await page.context().clearCookies({ name: "parley_theme" });

  // CSV export of the same period.
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Export CSV" }).click();
  const csv = fs
    .readFileSync((await (await download).path())!, "utf8")
    .trim()
    .split("\r\n");
  expect(csv[0]).toBe("day,member,model,provider,answers,inputTokens,cachedInputTokens,outputTokens,reasoningTokens,cost");
  expect(csv.slice(1)).toEqual([`${new Date().toISOString().slice(0, 10)},${ADMIN.name},gpt-4.1-mini,Priced ${run},2,200000,0,50000,0,0.16`]);

  // A member sees their own usage in Settings.
  await page.goto("/settings");
  await expect(page.getByRole("heading", { name: "Usage" })).toBeVisible();
  await expect(page.getByTestId("my-usage-summary")).toContainText("2 answers, 250,000 tokens, $0.16.");

  // A team budget below what was spent: the next message is refused, visibly, and not stored.
  await page.goto("/admin/usage");
  const budget = page.getByRole("form", { name: "Set a budget" });
  await budget.getByLabel("Monthly limit").fill("0.10");
  await budget.getByRole("button", { name: "Set budget" }).click();
  await expect(budget.getByRole("status")).toHaveText("Budget saved.");
  await expect(page.getByRole("table", { name: "Budgets" }).getByRole("row").filter({ hasText: "Whole team" })).toContainText("$0.16 (160%)");
  await page.goto(chatUrl);
  const refused = page.waitForResponse((r) => r.url().endsWith("/api/chat") && r.request().method() === "POST");
  await send(page, "Usage: once the budget allows");
  expect((await refused).status()).toBe(402);
  await expect(page.getByText(/The team's monthly budget of \$0\.10 is used up until 1 \w+ \d{4}\./)).toBeVisible();
  // The typed message is not lost: it is back in the box, and not shown as sent.
  const box = page.getByRole("textbox", { name: "Message" });
  await expect(box).toHaveValue("Usage: once the budget allows");
  await expect(page.getByRole("article", { name: "Your message" }).filter({ hasText: "once the budget allows" })).toHaveCount(0);
  // Nothing was stored.
  const stored = await page.request.get(chatUrl.replace("/chat/", "/api/chat/") + "/messages");
  expect(JSON.stringify(await stored.json())).not.toContain("once the budget allows");

  // In another tab an admin raises the budget to $0.28: $0.16 spent is 57%, no warning (the next
  // answer's estimate used to make it warn "57% used"). The kept message is then sent as it is.
  const admin = await page.context().newPage();
  const setBudget = async (limit: string) => {
    await admin.goto("/admin/usage");
    const form = admin.getByRole("form", { name: "Set a budget" });
    await form.getByLabel("Monthly limit").fill(limit);
    await form.getByRole("button", { name: "Set budget" }).click();
    await expect(form.getByRole("status")).toHaveText("Budget saved.");
  };
  await setBudget("0.28");
  await expect(box).toHaveValue("Usage: once the budget allows");
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await expect(answer(page)).toContainText("Sent once the budget allowed.");
  await expect(page.getByRole("article", { name: "Your message" }).filter({ hasText: "once the budget allows" })).toHaveCount(1);
  await expect(answer(page)).not.toContainText("monthly budget is");
  // $0.192 of $0.23 is 83%: the next answer starts with the warning, at the 80% the page states.
  await setBudget("0.23");
  await send(page, "Usage: near the limit");
  await expect(answer(page)).toContainText("Close to the limit now.");
  await expect(answer(page)).toContainText(/The team's monthly budget is 83% used/);
  await admin.close();
  await page.reload();
  await expect(page.getByRole("article", { name: "Assistant message" })).toHaveCount(4);
});
