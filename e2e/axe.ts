// Accessibility checks for the e2e specs: the page in a theme (light or dark, by the theme cookie), and
// its serious and critical axe-core violations, one line each.
import AxeBuilder from "@axe-core/playwright";
import { test, type Page } from "@playwright/test";

export const THEMES = ["light", "dark"] as const;

export async function applyTheme(page: Page, theme: (typeof THEMES)[number]) {
  await page.context().addCookies([{ name: "parley_theme", value: theme, url: test.info().project.use.baseURL! }]);
}

/**
 * Serious and critical violations on the page as it is now, one line each. `exclude` leaves out what
 * matches it (e.g. a third party's sandboxed frame, which axe cannot run in).
 */
export async function violations(page: Page, opts: { exclude?: string } = {}): Promise<string[]> {
  const builder = new AxeBuilder({ page });
  if (opts.exclude) builder.exclude(opts.exclude);
  const result = await builder.analyze();
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(" ")} — ${n.failureSummary?.split("\n").slice(1).join(" ").trim()}`));
}
