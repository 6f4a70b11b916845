// The everyday chat in Chromium against the scripted upstream (e2e/fixtures/everyday-chat.json): a long
// chat opens at its newest message and loading earlier messages keeps the reader's place; a streaming
// answer is followed while the reader is at the bottom, not once they scroll up, and "Jump to latest"
// brings them back; an answer is regenerated and both versions stay reachable (also after a reload);
// an edited question branches the chat and the old branch stays reachable; a stopped answer continues.
// Each state is checked with axe.
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { answer, newChat, send, storedChat } from "./helpers";
import { inOwnTeam } from "./own-team";

test.use({ storageState: inOwnTeam });

/** The scrolling message list. */
const list = (page: Page) => page.locator('[aria-live="polite"][aria-busy]');
/** How far the list is scrolled above its bottom, in pixels. */
const aboveBottom = (page: Page) => list(page).evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
const question = (page: Page, n: number) => page.getByRole("article", { name: "Your message" }).nth(n);
const versions = (scope: ReturnType<typeof answer>) => scope.getByRole("group", { name: "Versions" });

/** Serious and critical axe violations on the page as it is now. */
async function violations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(" ")}`));
}

/** Shows the app in dark mode from the next page load on. */
async function darkMode(page: Page) {
  await page.context().addCookies([{ name: "parley_theme", value: "dark", url: test.info().project.use.baseURL! }]);
}

/** Sends `count` questions to the open chat through the API, each answered in full before the next. */
async function seed(page: Page, count: number, text: (i: number) => string) {
  const chatId = new URL(page.url()).pathname.split("/").pop()!;
  const origin = new URL(page.url()).origin;
  for (let i = 0; i < count; i++) {
    const res = await page.request.post("/api/chat", {
      headers: { origin, "content-type": "application/json" },
      data: { id: chatId, message: { role: "user", parts: [{ type: "text", text: text(i) }] } },
    });
    expect(await res.text()).toContain('"type":"finish"');
  }
}

test("a long chat opens at its newest message; loading earlier messages keeps your place; Jump to latest", async ({ page }) => {
  test.setTimeout(120_000);
  await storedChat(page);
  // 30 exchanges: 60 messages, more than the first page holds.
  await seed(page, 30, (i) => `Everyday: tall answer ${i}`);
  // In dark mode, so that axe checks "Jump to latest" and "Load earlier messages" there (the other tests are light).
  await darkMode(page);
  await page.reload();
  await expect(page.locator("html")).toHaveClass(/dark/);
  await expect(answer(page)).toContainText("Paragraph 12");
  await expect(answer(page)).toBeInViewport();
  await expect.poll(() => aboveBottom(page)).toBeLessThan(80);
  await expect(page.getByRole("button", { name: "Jump to latest" })).toBeHidden();

  // Up at the top: the newest page starts at the 6th question; loading earlier keeps it where it was.
  await list(page).evaluate((el) => el.scrollTo({ top: 0 }));
  await expect(page.getByRole("button", { name: "Jump to latest" })).toBeVisible();
  expect(await violations(page)).toEqual([]);
  const first = list(page).getByText("Everyday: tall answer 5", { exact: true });
  const before = (await first.boundingBox())!.y;
  await page.getByRole("button", { name: "Load earlier messages" }).click();
  await expect(list(page).getByText("Everyday: tall answer 0", { exact: true })).toBeAttached();
  await expect(page.getByRole("button", { name: "Load earlier messages" })).toBeHidden();
  expect(Math.abs((await first.boundingBox())!.y - before)).toBeLessThan(40);
  await expect(first).toBeInViewport();
  await expect(list(page).getByText("Everyday: tall answer 0", { exact: true })).not.toBeInViewport();

  await page.getByRole("button", { name: "Jump to latest" }).click();
  await expect(answer(page)).toBeInViewport();
  await expect.poll(() => aboveBottom(page)).toBeLessThan(80);
  await expect(page.getByRole("button", { name: "Jump to latest" })).toBeHidden();
});

test("a streaming answer is followed at the bottom, not after scrolling up; Jump to latest returns", async ({ page }) => {
  test.setTimeout(90_000);
  await storedChat(page);
  await seed(page, 2, (i) => `Everyday: tall answer ${i}`);
  await page.reload();
  await send(page, "Everyday: stream a long answer");
  await expect(answer(page)).toContainText("Streamed line 25.");
  // Still streaming, the answer is taller than the page and the page keeps its end in view.
  await expect(page.getByRole("button", { name: "Stop", exact: true })).toBeVisible();
  await expect.poll(() => aboveBottom(page)).toBeLessThan(150);
  expect((await answer(page).boundingBox())!.height).toBeGreaterThan(await list(page).evaluate((el) => el.clientHeight));

  // Scrolled up, the reader stays where they are while the answer grows.
  await list(page).hover();
  await page.mouse.wheel(0, -600);
  await expect(page.getByRole("button", { name: "Jump to latest" })).toBeVisible();
  const top = await list(page).evaluate((el) => el.scrollTop);
  await expect(answer(page)).toContainText("Streamed line 60.");
  expect(Math.abs((await list(page).evaluate((el) => el.scrollTop)) - top)).toBeLessThan(5);
  expect(await aboveBottom(page)).toBeGreaterThan(400);

  await page.getByRole("button", { name: "Jump to latest" }).click();
  await expect.poll(() => aboveBottom(page)).toBeLessThan(150);
  await expect(answer(page)).toContainText("The long answer is complete.");
  await expect.poll(() => aboveBottom(page)).toBeLessThan(80);
});

test("regenerate keeps the previous version one switch away, also after a reload", async ({ page }) => {
  await newChat(page);
  await send(page, "Everyday: pick a colour");
  await expect(answer(page)).toContainText("Blue is my pick.");
  await answer(page).getByRole("button", { name: "Regenerate" }).click();
  await expect(answer(page)).toContainText("Green is my pick.");
  await expect(versions(answer(page))).toContainText("2 / 2");
  await expect(page.getByRole("article", { name: "Assistant message" })).toHaveCount(1);

  await versions(answer(page)).getByRole("button", { name: "Previous version" }).click();
  await expect(answer(page)).toContainText("Blue is my pick.");
  await expect(versions(answer(page))).toContainText("1 / 2");
  // The keyboard stays on the switcher.
  await expect(versions(answer(page)).getByRole("button", { name: "Next version" })).toBeFocused();
  expect(await violations(page)).toEqual([]);

  await page.reload();
  await expect(answer(page)).toContainText("Blue is my pick.");
  await expect(versions(answer(page))).toContainText("1 / 2");
  await versions(answer(page)).getByRole("button", { name: "Next version" }).click();
  await expect(answer(page)).toContainText("Green is my pick.");
  await page.reload();
  await expect(answer(page)).toContainText("Green is my pick.");
  await expect(versions(answer(page))).toContainText("2 / 2");
});

test("editing a question and resending branches the chat; the old branch stays reachable", async ({ page }) => {
  await newChat(page);
  await send(page, "Everyday: name a fruit");
  await expect(answer(page)).toContainText("Apple is a fruit.");
  await send(page, "Everyday: name a tree");
  await expect(answer(page)).toContainText("Oak is a tree.");

  await question(page, 0).getByRole("button", { name: "Edit message" }).click();
  const box = question(page, 0).getByRole("textbox", { name: "Edit message" });
  await expect(box).toBeFocused();
  await expect(box).toHaveValue("Everyday: name a fruit");
  expect(await violations(page)).toEqual([]);
  await box.fill("Everyday: name a vegetable");
  await question(page, 0).getByRole("button", { name: "Send", exact: true }).click();
  await expect(answer(page)).toContainText("Carrot is a vegetable.");
  await expect(page.getByRole("article")).toHaveCount(2);
  await expect(versions(question(page, 0))).toContainText("2 / 2");

  await versions(question(page, 0)).getByRole("button", { name: "Previous version" }).click();
  await expect(question(page, 0)).toContainText("Everyday: name a fruit");
  await expect(page.getByRole("article")).toHaveCount(4);
  await expect(answer(page)).toContainText("Oak is a tree.");
  await page.reload();
  await expect(question(page, 0)).toContainText("Everyday: name a fruit");
  await expect(versions(question(page, 0))).toContainText("1 / 2");
  await expect(answer(page)).toContainText("Oak is a tree.");

  // Cancel leaves the question as it was and gives the keyboard back to Edit.
  await question(page, 1).getByRole("button", { name: "Edit message" }).click();
  await question(page, 1).getByRole("button", { name: "Cancel" }).click();
  await expect(question(page, 1).getByRole("button", { name: "Edit message" })).toBeFocused();
  await expect(page.getByRole("article")).toHaveCount(4);
});

test("Stop, then Continue: the model goes on with the stopped answer", async ({ page }) => {
  await newChat(page);
  await send(page, "Everyday: tell a long tale");
  await expect(answer(page)).toContainText("Tale word 3.");
  await page.getByRole("button", { name: "Stop", exact: true }).click();
  await expect(answer(page)).toContainText("Stopped.");
  const kept = (await answer(page).innerText()).replace("Stopped.", "").trim();
  expect(kept).not.toContain("The tale would end here.");
  await expect(answer(page).getByRole("button", { name: "Continue", exact: true })).toBeVisible();
  expect(await violations(page)).toEqual([]);

  await answer(page).getByRole("button", { name: "Continue", exact: true }).click();
  await expect(answer(page)).toContainText("And so the tale reached its happy end.");
  await expect(answer(page)).not.toContainText("Stopped.");
  await expect(page.getByRole("article", { name: "Assistant message" })).toHaveCount(1);
  await expect(answer(page).getByRole("button", { name: "Continue", exact: true })).toBeHidden();
  await page.reload();
  await expect(answer(page)).toHaveAttribute("data-status", "done");
  await expect(answer(page)).toContainText("Tale word 3.");
  await expect(answer(page)).toContainText("And so the tale reached its happy end.");
  await expect(answer(page)).not.toContainText("Stopped.");
});

test("forged ids and bad input are refused (404 / 400) and change nothing", async ({ page }) => {
  await newChat(page);
  await send(page, "Everyday: name a fruit");
  await expect(answer(page)).toContainText("Apple is a fruit.");
  // Done, not only shown: until the answer is stored (and its title named) the chat is still busy,
  // and any request to it is 409 "A reply is still being written", whatever else is wrong with it.
  await expect(answer(page)).toHaveAttribute("data-status", "done");
  await expect(page).toHaveURL(/\/chat\/[a-z0-9]+$/);
  const chatId = new URL(page.url()).pathname.split("/").pop()!;
  const origin = new URL(page.url()).origin;
  const post = async (path: string, data: object) =>
    (await page.request.post(path, { headers: { origin, "content-type": "application/json" }, data })).status();
  const message = { role: "user", parts: [{ type: "text", text: "Everyday: name a tree" }] };
  expect(await post("/api/chat", { id: chatId, trigger: "regenerate-message", messageId: "forged" })).toBe(404);
  expect(await post("/api/chat", { id: chatId, message, editOf: "forged" })).toBe(404);
  expect(await post("/api/chat", { id: chatId, continueOf: "forged" })).toBe(404);
  expect(await post("/api/chat", { id: chatId, continueOf: "forged", message })).toBe(400);
  expect(await post(`/api/chat/${chatId}/versions`, { messageId: "forged", direction: "next" })).toBe(404);
  expect(await post(`/api/chat/${chatId}/versions`, { messageId: "forged", direction: "sideways" })).toBe(400);
  expect(await post("/api/chat/not-a-chat/versions", { messageId: "forged", direction: "next" })).toBe(404);
  await page.reload();
  await expect(page.getByRole("article")).toHaveCount(2);
  await expect(answer(page)).toContainText("Apple is a fruit.");
});
