// Single sign-on in Chromium against the production build and a real OpenID provider on loopback
// (oidc-provider, test/support/oidc-provider.ts; port from E2E_OIDC_PORT, else one the OS picks).
// The first admin configures the provider through Admin → Sign-in (Test discovery refuses a wrong
// issuer, then finds the right one), adds group rules; a new person signs in through the provider's
// login page and lands as an admin of the mapped team, cannot open the instance's sign-in settings,
// and after their groups change at the provider is a plain member at their next sign-in. Test
// discovery refuses a document whose token endpoint is at a refused address or on another server.
// A provider identity whose email is an existing password account's is not signed in to it: the
// owner signs in with the password and links single sign-on from the profile, and from then on the
// provider signs them in. The pages pass axe in light and dark. At the end single sign-on is removed
// again (other specs sign in with the password form).
import { expect, test, type Page } from "@playwright/test";
import { startOidcProvider, type RunningOidcProvider } from "../test/support/oidc-provider";
import { THEMES, applyTheme, violations } from "./axe";
import { ADMIN_STATE, SIGNED_OUT, chooseOption, createInvite, joinWithNewAccount, uniqueUser } from "./helpers";
import { inOwnTeam } from "./own-team";

test.use({ storageState: inOwnTeam });
// The second test signs in through the provider the first one sets up.
test.describe.configure({ mode: "serial" });

const PORT = Number(process.env.E2E_PORT || 3210);
const run = Date.now().toString(36);
const TEAM = `Engineering ${run}`;
const GRACE = { sub: `grace-${run}`, password: "grace at the provider", email: `grace-${run}@example.com`, name: `Grace ${run}`, groups: ["eng-admins"] };
// An existing password account (made through an invite) and a provider identity with its email.
const LINDA = uniqueUser("linda");
const LINDA_AT_IDP = { sub: `linda-${run}`, password: "linda at the provider", email: LINDA.email, name: LINDA.name, groups: ["eng"] };
const CLIENT = { clientId: "parley-e2e", clientSecret: "e2e client secret, known to the provider and Parley" };

let idp: RunningOidcProvider;

test.beforeAll(async () => {
  idp = await startOidcProvider({
    port: Number(process.env.E2E_OIDC_PORT || 0),
    clients: [{ ...CLIENT, redirectUris: [`http://localhost:${PORT}/api/auth/callback/sso`] }],
    users: [GRACE, LINDA_AT_IDP],
  });
});

test.afterAll(async ({ browser }) => {
  // Leave no provider behind for the other specs, whatever happened above.
  const context = await browser.newContext({ storageState: ADMIN_STATE });
  const page = await context.newPage();
  await page.goto("/admin/sign-in");
  const remove = page.getByRole("button", { name: "Remove single sign-on" });
  if (await remove.isVisible()) {
    await remove.click();
    await expect(page.getByText("Single sign-on removed; password sign-in is on.")).toBeVisible();
  }
  await context.close();
  await idp?.stop();
});

/** "Sign in with Acme ID"; the provider asks for the password unless it still has a session of its own. */
async function ssoSignIn(page: Page, { atProvider, as = GRACE, landing = /^\/chat/ }: { atProvider: boolean; as?: typeof GRACE; landing?: RegExp }) {
  await page.goto("/sign-in");
  await page.getByRole("button", { name: "Sign in with Acme ID" }).click();
  if (atProvider) {
    await expect(page.getByRole("heading", { name: "Test identity provider" })).toBeVisible();
    await page.getByLabel("Username").fill(as.sub);
    await page.getByLabel("Password").fill(as.password);
    await page.getByRole("button", { name: "Sign in" }).click();
  }
  await page.waitForURL((url) => url.origin === `http://localhost:${PORT}` && landing.test(url.pathname + url.search));
}

test("an admin sets up single sign-on; a new person signs in through the provider with the role their groups map to, and it follows their groups", async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  await page.goto("/teams/new");
  await page.getByLabel("Team name").fill(TEAM);
  await page.getByRole("button", { name: "Create team" }).click();
  await expect(page).toHaveURL(/\/admin\/members$/);

  await page.getByRole("link", { name: "Sign-in" }).click();
  await expect(page.getByRole("heading", { name: "Single sign-on (OpenID Connect)" })).toBeVisible();
  await expect(page.getByLabel("Redirect (callback) URI")).toHaveValue(`http://localhost:${PORT}/api/auth/callback/sso`);
  const form = page.getByRole("form", { name: "Single sign-on provider" });
  await form.getByLabel("Name on the button").fill("Acme ID");
  await form.getByLabel("Issuer URL").fill(`${idp.issuer}/wrong`);
  await form.getByLabel("Client id").fill(CLIENT.clientId);
  await form.getByLabel("Client secret").fill(CLIENT.clientSecret);
  await form.getByLabel("Scopes").fill("openid email profile groups");
  await form.getByRole("button", { name: "Test discovery" }).click();
  await expect(page.getByTestId("discovery-result")).toContainText("Discovery failed: No discovery document");
  await form.getByLabel("Issuer URL").fill(idp.issuer);
  await form.getByRole("button", { name: "Test discovery" }).click();
  await expect(page.getByTestId("discovery-result")).toContainText(`Discovery works. Found the OpenID provider ${idp.issuer}`);
  // A document naming a token endpoint at a refused address, or on another server, is refused.
  idp.setDiscovery({ token_endpoint: `http://0.0.0.0:${idp.port}/token` });
  await form.getByRole("button", { name: "Test discovery" }).click();
  await expect(page.getByTestId("discovery-result")).toContainText("Discovery failed: The discovery document's token_endpoint");
  idp.setDiscovery({ token_endpoint: `http://localhost:${idp.port}/token` });
  await form.getByRole("button", { name: "Test discovery" }).click();
  await expect(page.getByTestId("discovery-result")).toContainText(`is on another server (http://localhost:${idp.port})`);
  idp.setDiscovery({});
  await form.getByRole("button", { name: "Test discovery" }).click();
  await expect(page.getByTestId("discovery-result")).toContainText("Discovery works.");
  await form.getByRole("button", { name: "Turn on single sign-on" }).click();
  await expect(form.getByRole("status").filter({ hasText: "Single sign-on saved." })).toHaveText(
    "Single sign-on saved. People now see its button on the sign-in page.",
  );
  // The secret is write-only: the form says it is set and never holds it.
  await page.reload();
  await expect(form.getByLabel("Client secret")).toHaveValue("");
  await expect(form.getByLabel("Client secret")).toHaveAttribute("placeholder", "Set (hidden); type to replace");
  expect(await page.content()).not.toContain(CLIENT.clientSecret);

  const rules = page.getByRole("form", { name: "Add a group rule" });
  for (const [group, role] of [
    ["eng-admins", "Admin"],
    ["eng", "Member"],
  ]) {
    await rules.getByLabel("Group").fill(group);
    await chooseOption(rules.getByLabel("Team"), TEAM);
    await chooseOption(rules.getByLabel("Role"), role);
    await rules.getByRole("button", { name: "Add rule" }).click();
    await expect(page.getByRole("list", { name: "Group rules" }).getByText(`Group ${group} → ${role.toLowerCase()} of ${TEAM}`)).toBeVisible();
  }

  const found: string[] = [];
  for (const theme of THEMES) {
    await applyTheme(page, theme);
    await page.reload();
    found.push(...(await violations(page)).map((v) => `${theme}: ${v}`));
  }
  expect(found).toEqual([]);

  // A new person: "Sign in with Acme ID", the provider's login page, back in Parley as an admin of the team.
  const context = await browser.newContext(SIGNED_OUT);
  const grace = await context.newPage();
  await ssoSignIn(grace, { atProvider: true });
  await grace.goto("/admin/members");
  await expect(grace.getByLabel(`Role of ${GRACE.name}`)).toHaveValue("admin");
  // An admin of a later team cannot see or change how everybody signs in.
  await expect(grace.getByRole("link", { name: "Sign-in" })).toHaveCount(0);
  await grace.goto("/admin/sign-in");
  await expect(grace.getByRole("heading", { name: "Admins only" })).toBeVisible();

  // Their groups change at the provider: at the next sign-in they are a member, and admin pages are closed.
  idp.setGroups(GRACE.sub, ["eng"]);
  await grace.getByRole("link", { name: "Back to your chats" }).click();
  await grace.getByRole("button", { name: "Sign out" }).click();
  await expect(grace).toHaveURL(/\/sign-in$/);
  // Signed out of Parley only: the provider still knows them, so it sends them straight back.
  await ssoSignIn(grace, { atProvider: false });
  await grace.goto("/admin/members");
  await expect(grace.getByRole("heading", { name: "Admins only" })).toBeVisible();
  await context.close();

  // The first admin sees Grace as a member now.
  await page.goto("/admin/members");
  await expect(page.getByLabel(`Role of ${GRACE.name}`)).toHaveValue("member");
});

test("a provider identity with an existing account's email signs in only after the owner links it with their password", async ({ page, browser }) => {
  test.setTimeout(120_000);
  const { context: joined } = await joinWithNewAccount(browser, await createInvite(page), LINDA);
  await joined.close();

  const context = await browser.newContext(SIGNED_OUT);
  const linda = await context.newPage();
  await ssoSignIn(linda, { atProvider: true, as: LINDA_AT_IDP, landing: /^\/sign-in\?error=link_required/ });
  await expect(linda.getByRole("alert").filter({ hasText: "Single sign-on failed" })).toHaveText(
    "Single sign-on failed: An account with this email exists: sign in with your password to link single sign-on.",
  );
  await linda.getByLabel("Email").fill(LINDA.email);
  await linda.getByLabel("Password").fill(LINDA.password);
  await linda.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(linda).toHaveURL(/\/profile$/);
  await expect(linda.getByText("Not linked. After linking you can sign in with Acme ID")).toBeVisible();
  const found: string[] = [];
  for (const theme of THEMES) {
    await applyTheme(linda, theme);
    await linda.reload();
    found.push(...(await violations(linda)).map((v) => `${theme}: ${v}`));
  }
  expect(found).toEqual([]);
  // The provider still has Linda's session from the refused sign-in, so it sends her straight back.
  await linda.getByRole("button", { name: "Link single sign-on" }).click();
  await expect(linda.getByRole("status").filter({ hasText: "Single sign-on linked." })).toHaveText("Single sign-on linked. You can now sign in with Acme ID.");
  await expect(linda.getByRole("button", { name: "Unlink single sign-on" })).toBeVisible();

  await linda.goto("/chat");
  await linda.getByRole("button", { name: "Sign out" }).click();
  await expect(linda).toHaveURL(/\/sign-in$/);
  await ssoSignIn(linda, { atProvider: false, as: LINDA_AT_IDP });
  await linda.goto("/profile");
  await expect(linda.getByText(`Signed in as ${LINDA.email}.`)).toBeVisible();
  await context.close();
});
