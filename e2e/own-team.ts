// Each spec file in a team of its own, so spec files run side by side (two workers) without seeing each
// other's servers, budgets, chats or approvals. A file says `test.use({ storageState: inOwnTeam })` where
// it would use the stored admin session: before its first test the admin makes a new team named after the
// file with the New team form (its model provider is seeded as for every new team), and the file's tests
// get that session, chosen into the team. Helpers that open contexts of their own use adminState();
// teamName() names the team.
import path from "node:path";
import { expect, test, type Browser, type BrowserContextOptions, type TestFixture } from "@playwright/test";
import { ADMIN_STATE, OUTPUT_DIR, fileTeam, setFileTeam } from "./helpers";

/** For test.use's storageState: the stored admin session, in this spec file's own team. */
export const inOwnTeam: TestFixture<BrowserContextOptions["storageState"], { browser: Browser }> = async ({ browser }, provide) =>
  provide(await ensureFileTeam(browser));

/**
 * The stored admin session of this spec file's team, made on first use: for `inOwnTeam` and for a
 * `beforeAll` that sets the team up (adds a server) before the first test.
 */
export async function ensureFileTeam(browser: Browser): Promise<string> {
  const file = path.basename(test.info().file).replace(/\.spec\.ts$/, "");
  if (fileTeam()?.file !== file) setFileTeam(await newTeam(browser, file));
  return fileTeam()!.state;
}

/** A new team named after the spec file, made by the admin; the session chosen into it, stored. */
async function newTeam(browser: Browser, file: string) {
  const name = `Spec ${file}`;
  const state = `${OUTPUT_DIR}/.auth/team-${file}.json`;
  // A context made while a test's own options are being worked out has none of them: the address is given here.
  const context = await browser.newContext({ baseURL: test.info().project.use.baseURL, storageState: ADMIN_STATE });
  const page = await context.newPage();
  await page.goto("/teams/new");
  await page.getByLabel("Team name").fill(name);
  await page.getByRole("button", { name: "Create team" }).click();
  await expect(page).toHaveURL(/\/admin\/members$/);
  await context.storageState({ path: state });
  await context.close();
  return { file, name, state };
}
