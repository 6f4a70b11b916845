// The Tools control keeps what a person clicks: a load of the chat's choice that was in flight when
// they clicked (opening the picker reloads it) never puts back the older choice, and the next click
// builds on what they see. Focus moves into the picker on open and to the message box on Escape.
import { expect, test, type Page } from "@playwright/test";
import { addEverything, adminWithEverything, createTeam } from "./admin-steps";
import { storedChat } from "./helpers";

adminWithEverything();

/** Resolves once the page has handled what it received so far (frames and a task in between). */
const settled = (page: Page) => page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => setTimeout(() => requestAnimationFrame(() => r())))));

test("quick clicks right after opening Tools stick, and the next click builds on them", async ({ page }) => {
  // A team of its own, so the other specs' servers stay as they are.
  await createTeam(page, "Tool Pickers");
  await addEverything(page, "alpha");
  await addEverything(page, "beta");
  // A stored chat: the picker saves each choice at once (a new chat's choice waits for its first message).
  const chatId = await storedChat(page);
  const saved = async () =>
    ((await (await page.request.get(`/api/chat/${chatId}/tools`)).json()) as { selection: { servers: string[]; tools: string[] } }).selection;

  const tools = page.getByRole("button", { name: /^Tools/ });
  await expect(tools).toBeVisible();
  // From now on the chat's choice loads slowly: each load is answered by the server at once but
  // reaches the page only when the test lets it, the load made on opening last (it was in flight
  // while the person clicked, and an older answer arriving late is what must not win).
  let holding = true;
  const pending: ((tag: string) => Promise<void>)[] = [];
  await page.route(`**/api/chat/${chatId}/tools`, async (route) => {
    if (route.request().method() !== "GET") return route.continue();
    const response = await route.fetch();
    const deliver = (tag: string) => route.fulfill({ response, headers: { ...response.headers(), "x-load": tag } });
    if (!holding) return deliver("later");
    await new Promise<void>((done) => pending.push((tag) => deliver(tag).then(done)));
  });

  await tools.click();
  const picker = page.getByRole("dialog", { name: "Tools for this chat" });
  await expect(picker).toBeVisible();
  await expect.poll(() => picker.evaluate((el) => el.contains(document.activeElement))).toBe(true);
  await picker.getByRole("checkbox", { name: "Use alpha", exact: true }).click();
  await picker.getByRole("checkbox", { name: "Use beta", exact: true }).click();
  await expect.poll(async () => (await saved()).servers.length).toBe(2);
  const both = (await saved()).tools.length;

  // The load made on opening arrives, after the later ones: both choices stay.
  const stale = page.waitForResponse((r) => r.headers()["x-load"] === "opening");
  holding = false;
  const [opening, ...later] = pending;
  for (const deliver of later) await deliver("later");
  await opening("opening");
  await stale;
  await settled(page);
  expect(await picker.getByRole("checkbox", { name: "Use alpha", exact: true }).isChecked()).toBe(true);
  expect(await picker.getByRole("checkbox", { name: "Use beta", exact: true }).isChecked()).toBe(true);
  // The next click changes only what it says.
  await picker.getByRole("checkbox", { name: "Use alpha echo", exact: true }).uncheck();
  await expect.poll(async () => (await saved()).tools.length).toBe(both - 1);
  expect((await saved()).servers).toHaveLength(2);

  await page.keyboard.press("Escape");
  await expect(picker).toBeHidden();
  await expect(page.getByRole("textbox", { name: "Message" })).toBeFocused();

  await page.unrouteAll({ behavior: "wait" });
  await page.reload();
  await page.getByRole("button", { name: /^Tools/ }).click();
  await expect(picker.getByRole("checkbox", { name: "Use alpha", exact: true })).toBeChecked();
  await expect(picker.getByRole("checkbox", { name: "Use beta", exact: true })).toBeChecked();
  await expect(picker.getByRole("checkbox", { name: "Use alpha echo", exact: true })).not.toBeChecked();
  await expect(picker.getByRole("checkbox", { name: "Use beta echo", exact: true })).toBeChecked();
  await page.keyboard.press("Escape");
});
