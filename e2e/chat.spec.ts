// Chatting in the browser against the scripted upstream (aimock, e2e/fixtures/chat.json): the answer
// streams in, survives a reload as the same blocks, can be stopped, continues after a reload mid-turn,
// and chats can be renamed and deleted.
import { expect, test } from "@playwright/test";
import { newChat, send, answer, storedChat, countAnswerWords, answerWordCounts } from "./helpers";
import { inOwnTeam } from "./own-team";

test.use({ storageState: inOwnTeam });

test("send a message, see the answer stream, reload and see the same blocks", async ({ page }) => {
  await newChat(page);
  const streamed = page.waitForResponse((r) => r.url().endsWith("/api/chat") && r.request().method() === "POST");
  await send(page, "Tell me a short story");
  // The event stream is sent as it is produced, never compressed (compression holds chunks back).
  const res = await streamed;
  expect(res.headers()["content-type"]).toContain("text/event-stream");
  expect(res.headers()["content-encoding"]).toBeUndefined();
  await expect(page.getByRole("article", { name: "Your message" })).toHaveText("Tell me a short story");
  await expect(page.getByRole("button", { name: "Stop", exact: true })).toBeVisible();
  await expect(answer(page)).toContainText("small robot");
  await expect(answer(page)).toContainText("The end.");
  await expect(page.getByRole("button", { name: "Send", exact: true })).toBeVisible();
  // Markdown and code highlighting with a copy button.
  await expect(answer(page).locator('[data-streamdown="strong"]')).toHaveText("small robot");
  await expect(answer(page).locator('[data-streamdown="code-block"]')).toContainText('print("hello from the robot")');
  await expect(answer(page).locator('[data-streamdown="code-block-copy-button"]')).toBeVisible();
  const before = await answer(page).innerText();

  await page.reload();
  await expect(answer(page)).toContainText("The end.");
  expect(await answer(page).innerText()).toBe(before);
  // The chat got a title from the first message, shown in the list.
  await expect(page.getByRole("navigation", { name: "Chats" }).getByRole("link", { name: "Tell me a short story" })).toBeVisible();
});

test("Shift+Enter makes a new line; Enter sends", async ({ page }) => {
  await newChat(page);
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("first line");
  await box.press("Shift+Enter");
  await box.pressSequentially("second line");
  await expect(box).toHaveValue("first line\nsecond line");
  await box.press("Enter");
  await expect(box).toHaveValue("");
  await expect(page.getByRole("article", { name: "Your message" })).toContainText("second line");
  await expect(answer(page)).toContainText("scripted model");
});

test("Stop ends the turn on the server and keeps what streamed", async ({ page }) => {
  await newChat(page);
  await send(page, "Count slowly");
  await expect(answer(page)).toContainText("Two.");
  await page.getByRole("button", { name: "Stop", exact: true }).click();
  await expect(answer(page)).toContainText("Stopped.");
  await expect(page.getByRole("button", { name: "Send", exact: true })).toBeVisible();
  const kept = (await answer(page).innerText()).replace("Stopped.", "").trim();
  expect(kept).not.toContain("Done counting");
  await page.reload();
  await expect(answer(page)).toContainText("Stopped.");
  await expect(answer(page)).toHaveAttribute("data-status", "stopped");
  await expect(answer(page)).not.toContainText("Done counting");
});

test("reloading mid-turn shows what streamed so far and continues live, never showing less, also on a slow connection", async ({ page }) => {
  await newChat(page);
  await send(page, "Count slowly");
  await expect(answer(page)).toContainText("Three.");
  // The resumed stream replays the answer from its start: the page must not blank it meanwhile. On a
  // slow connection, too: the stream starts 1 s after the reload, and the page's reads of the stored
  // answer (it reads them while it follows no stream) arrive 1.5 s after the server sent them, when the
  // live answer is ahead of them.
  await page.route(/\/api\/chat\/[^/]+\/stream$/, async (route) => {
    await new Promise((r) => setTimeout(r, 1_000));
    await route.continue();
  });
  await page.route(/\/api\/chat\/[^/]+\/messages$/, async (route) => {
    const response = await route.fetch();
    await new Promise((r) => setTimeout(r, 1_500));
    await route.fulfill({ response });
  });
  await countAnswerWords(page);
  await page.reload();
  await expect(answer(page)).toContainText("Three.");
  await expect(answer(page)).toContainText("Done counting.", { timeout: 20_000 });
  const shown = await answerWordCounts(page);
  expect(shown[0]).toBeGreaterThanOrEqual(3);
  expect(shown, "the answer's word count, change by change").toEqual(shown.toSorted((x, y) => x - y));
  await page.reload();
  await expect(answer(page)).toHaveAttribute("data-status", "done");
  await expect(answer(page)).toContainText("Done counting.");
});

test("an upstream error shows an error block with Regenerate", async ({ page }) => {
  await newChat(page);
  await send(page, "Please fail");
  const alert = answer(page).getByRole("alert");
  await expect(alert).toContainText("ProviderError");
  await expect(alert).toContainText("the scripted upstream failed on purpose");
  await page.reload();
  await expect(answer(page).getByRole("alert")).toContainText("ProviderError");
  await expect(answer(page).getByRole("button", { name: "Regenerate" })).toBeVisible();
});

test("reasoning is shown collapsed above the answer", async ({ page }) => {
  await newChat(page);
  await send(page, "Think about it");
  await expect(answer(page)).toContainText("After thinking: yes.");
  const reasoning = answer(page).getByText("Reasoning", { exact: true });
  await expect(reasoning).toBeVisible();
  await expect(answer(page).getByText("Weighing both options carefully.")).toBeHidden();
  await reasoning.click();
  await expect(answer(page).getByText("Weighing both options carefully.")).toBeVisible();
});

test("rename and delete a chat", async ({ page }) => {
  await newChat(page);
  await send(page, "Hello there");
  await expect(answer(page)).toContainText("scripted model");
  await page.getByRole("button", { name: "Rename chat" }).click();
  await page.getByLabel("Chat title").fill("Renamed by the test");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("heading", { name: "Renamed by the test" })).toBeVisible();
  const link = page.getByRole("navigation", { name: "Chats" }).getByRole("link", { name: "Renamed by the test" });
  await expect(link).toBeVisible();
  const url = page.url();

  await page.getByRole("button", { name: "Delete chat" }).click();
  await page.getByRole("button", { name: "Delete chat" }).click(); // the confirmation
  await expect(page).toHaveURL(/\/chat$/);
  await expect(link).toHaveCount(0);
  expect((await page.goto(url))?.status()).toBe(404);
});

test("bad requests to /api/chat get clear errors and write nothing", async ({ page }) => {
  const chatId = await storedChat(page);
  const api = page.request;
  const malformed = await api.post("/api/chat", { data: "{not json", headers: { "content-type": "application/json" } });
  expect(malformed.status()).toBe(400);
  const wrongShape = await api.post("/api/chat", { data: { id: chatId, message: { role: "assistant", parts: [] } } });
  expect(wrongShape.status()).toBe(400);
  const huge = await api.post("/api/chat", { data: { id: chatId, message: { role: "user", parts: [{ type: "text", text: "x".repeat(32_001) }] } } });
  expect(huge.status()).toBe(413);
  expect((await huge.json()).error.message).toContain("32000");
  const foreign = await api.post("/api/chat", { data: { id: "not-my-chat", message: { role: "user", parts: [{ type: "text", text: "hi" }] } } });
  expect(foreign.status()).toBe(404);
  await page.reload();
  await expect(page.getByText("Send a message to start.")).toBeVisible();
});
