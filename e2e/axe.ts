// axe-core checks for the e2e specs: a page's serious and critical violations, one line each, in the
// theme the test chose (the parley_theme cookie).
import AxeBuilder from "@axe-core/playwright";
import { test, type Page } from "@playwright/test";

export const THEMES = ["light", "dark"] as const;

export async function applyTheme(page: Page, theme: (typeof THEMES)[number]) {
  await page.context().addCookies([{ name: "parley_theme", value: theme, url: test.info().project.use.baseURL! }]);
}

/** Serious and critical violations on the page as it is now, one line each. */
export async function violations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(" ")} — ${n.failureSummary?.split("\n").slice(1).join(" ").trim()}`));
}
