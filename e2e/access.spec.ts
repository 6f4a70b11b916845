// Server-side authorisation: members are refused from admin pages and routes (403); a user of one
// team can read or change nothing of another team (404, so ids do not leak); the last admin stays.
import { expect, test, type Page } from "@playwright/test";
import { chooseOption, teamName, createInvite, joinWithNewAccount, storedChat } from "./helpers";
import { inOwnTeam } from "./own-team";

/** The current team's id, as the team switcher holds it. */
const teamIdOf = (page: Page) => page.getByLabel("Team", { exact: true }).getAttribute("data-value");

test.use({ storageState: inOwnTeam });

test("a member is refused from admin pages and admin routes", async ({ page, browser }) => {
  await page.goto("/chat");
  const teamId = await teamIdOf(page);
  const { page: member, context } = await joinWithNewAccount(browser, await createInvite(page));

  const res = await member.goto("/admin/members");
  expect(res?.status()).toBe(403);
  await expect(member.getByRole("heading", { name: "Admins only" })).toBeVisible();
  expect((await member.goto("/admin/audit"))?.status()).toBe(403);

  const api = member.request;
  expect((await api.get(`/api/teams/${teamId}/members`)).status()).toBe(403);
  expect((await api.post(`/api/teams/${teamId}/invites`, { data: { role: "admin", days: 7 } })).status()).toBe(403);
  const members = await (await page.request.get(`/api/teams/${teamId}/members`)).json();
  const self = members.members.find((m: { user: { email: string } }) => m.user.email.startsWith("member-"));
  expect((await api.patch(`/api/teams/${teamId}/members/${self.id}`, { data: { role: "admin" } })).status()).toBe(403);
  await context.close();
});

test("another team's data is invisible to this team's member", async ({ page, browser }) => {
  await page.goto("/chat");
  const teamA = await teamIdOf(page);
  const { page: member, context } = await joinWithNewAccount(browser, await createInvite(page));

  // The admin makes a second team and a chat in it.
  await page.goto("/teams/new");
  await page.getByLabel("Team name").fill("Difference Engines");
  await page.getByRole("button", { name: "Create team" }).click();
  await expect(page).toHaveURL(/\/admin\/members$/);
  const teamB = await teamIdOf(page);
  expect(teamB).not.toBe(teamA);
  await storedChat(page);
  const chatB = page.url();

  // The member of team A sees only team A, and gets 404 for team B's things.
  await member.goto("/chat");
  // One team only: the switcher names it and offers no other.
  await expect(member.getByLabel("Team", { exact: true }).locator("option")).toHaveCount(1);
  await expect(member.getByLabel("Team", { exact: true }).locator("option:checked")).toHaveText(teamName());
  await expect(member.getByLabel("Team", { exact: true })).toBeDisabled();
  expect((await member.goto(chatB))?.status()).toBe(404);
  const api = member.request;
  expect((await api.get(`/api/teams/${teamB}/members`)).status()).toBe(404);
  expect((await api.post(`/api/teams/${teamB}/invites`, { data: { role: "member", days: 1 } })).status()).toBe(404);
  // A team id that does not exist answers the same as one that does.
  expect((await api.get(`/api/teams/no-such-team/members`)).status()).toBe(404);
  await context.close();

  // The admin can switch between the two teams.
  await chooseOption(page.getByLabel("Team", { exact: true }), `${teamName()} (admin)`);
  await expect(page.getByRole("heading", { name: teamName() })).toBeVisible();
});

test("the last admin of a team cannot be demoted or removed", async ({ page }) => {
  await page.goto("/teams/new");
  await page.getByLabel("Team name").fill("Solo Team");
  await page.getByRole("button", { name: "Create team" }).click();
  await expect(page).toHaveURL(/\/admin\/members$/);
  await chooseOption(page.getByLabel(/^Role of /), "Member");
  await expect(page.getByText("A team needs at least one admin.")).toBeVisible();
  await page.reload();
  await expect(page.getByLabel(/^Role of /)).toHaveAttribute("data-value", "admin");
  await page.getByRole("button", { name: /^Remove / }).click();
  await page.getByRole("button", { name: "Confirm removal" }).click();
  await expect(page.getByText("A team needs at least one admin.")).toBeVisible();
});
