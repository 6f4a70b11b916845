// Working together, in Chromium with two members (and a bystander, and a member of another team): the
// owner attaches a file and shares a chat that is still streaming; the member follows it live, finds it
// under "Shared with me" and in message search, opens its attachment, cannot act in it; the bystander
// and the other team get 404 from every route; revoking is immediate; "can continue" gives a copy.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { answer, answerWordCounts, chooseOption, countAnswerWords, createInvite, joinWithNewAccount, newChat, send, teamName } from "./helpers";
import { inOwnTeam } from "./own-team";
import { violations } from "./axe";

test.use({ storageState: inOwnTeam });

/** Every route a viewer of `chatId` would use, as the given page's session calls them. */
async function statuses(page: Page, chatId: string, attachmentUrl: string) {
  const origin = new URL(page.url()).origin;
  const api = page.request;
  return {
    page: (await api.get(`/chat/${chatId}`)).status(),
    messages: (await api.get(`/api/chat/${chatId}/messages`)).status(),
    stream: (await api.get(`/api/chat/${chatId}/stream`)).status(),
    attachment: (await api.get(attachmentUrl)).status(),
    send: (
      await api.post("/api/chat", { headers: { origin }, data: { id: chatId, message: { role: "user", parts: [{ type: "text", text: "hijack" }] } } })
    ).status(),
    share: (await api.post(`/api/chat/${chatId}/shares`, { headers: { origin }, data: { userId: null } })).status(),
  };
}

test("a shared chat is followed live by the member it is shared with, and by nobody else", async ({ page, browser }) => {
  test.setTimeout(180_000);
  const invite = await createInvite(page);
  const { page: member, context, user } = await joinWithNewAccount(browser, invite);
  const bystander = await joinWithNewAccount(browser, await createInvite(page));
  // A member of another team (the admin's second team).
  await page.goto("/teams/new");
  await page.getByLabel("Team name").fill(`Other team ${Date.now()}`);
  await page.getByRole("button", { name: "Create team" }).click();
  await expect(page).toHaveURL(/\/admin\/members$/);
  const stranger = await joinWithNewAccount(browser, await createInvite(page));
  await chooseOption(page.getByLabel("Team", { exact: true }), `${teamName()} (admin)`);

  // The owner attaches a text file (through the file picker) and asks for a slow answer.
  await newChat(page);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "parley-e2e-")), "meeting-notes.md");
  fs.writeFileSync(file, "# Meeting\nThe capybara budget was approved.\n");
  await page.locator('input[type="file"]').setInputFiles(file);
  await expect(page.getByRole("list", { name: "Files to send" }).getByText("meeting-notes.md")).toBeVisible();
  await send(page, "Sharing: count very slowly");
  await page.waitForURL(/\/chat\/[a-z0-9]+$/);
  const chatId = page.url().split("/").pop()!;
  const attachment = page.getByRole("article", { name: "Your message" }).getByRole("link", { name: "meeting-notes.md" });
  await expect(attachment).toBeVisible();
  const attachmentUrl = (await attachment.getAttribute("href"))!;

  // Share with the member, read-only, while the answer is still being written.
  await page.getByRole("button", { name: "Share", exact: true }).click();
  await chooseOption(page.getByLabel("Share with"), user.name);
  await page.getByRole("button", { name: "Share chat" }).click();
  await expect(page.getByText(`${user.name} · read only`)).toBeVisible();
  expect(await violations(page)).toEqual([]);
  await page.getByRole("button", { name: "Close" }).click();

  // The member follows the answer live (never seeing less of it than the page opened with), sees the
  // attachment, and has no composer and no way to act.
  await countAnswerWords(member);
  await member.goto(`/chat/${chatId}`);
  await expect(member.getByText(/following live/)).toBeVisible();
  await expect(answer(member)).toContainText("Done counting.", { timeout: 30_000 });
  const shown = await answerWordCounts(member);
  expect(shown, "the answer's word count, change by change").toEqual(shown.toSorted((x, y) => x - y));
  await expect(member.getByRole("textbox", { name: "Message" })).toHaveCount(0);
  await expect(member.getByText(/Shared by Ada Admin · read only/)).toBeVisible();
  expect((await member.request.get(attachmentUrl)).status()).toBe(200);
  // (Chats of projects other specs shared with the team are listed there too.)
  await expect(member.getByRole("navigation", { name: "Shared with me" }).locator(`a[href="/chat/${chatId}"]`)).toHaveCount(1);
  expect(await statuses(member, chatId, attachmentUrl)).toMatchObject({ page: 200, messages: 200, attachment: 200, send: 404, share: 404 });

  // Search finds the chat by its answer for the member it is shared with, with the word highlighted.
  await member.goto("/search?q=thirteen");
  await expect(member.getByRole("main").locator(`a[href="/chat/${chatId}"]`)).toHaveCount(1);
  await expect(member.locator("mark", { hasText: /thirteen/i })).toBeVisible();

  // Nobody else: the bystander in the team and the member of the other team get 404 everywhere.
  for (const other of [bystander.page, stranger.page]) {
    expect(await statuses(other, chatId, attachmentUrl)).toEqual({ page: 404, messages: 404, stream: 404, attachment: 404, send: 404, share: 404 });
    await other.goto("/search?q=thirteen");
    await expect(other.getByText("No messages match “thirteen”.")).toBeVisible();
  }

  // Revoking is immediate: the open page says so at its next look, every route answers 404.
  await member.goto(`/chat/${chatId}`);
  await page.getByRole("button", { name: "Share", exact: true }).click();
  await page.getByRole("button", { name: `Stop sharing with ${user.name}` }).click();
  await expect(page.getByText("Nobody yet: only you can see this chat.")).toBeVisible();
  await page.getByRole("button", { name: "Close" }).click();
  await expect(member.getByRole("alert").filter({ hasText: "This chat is no longer shared with you." })).toBeVisible({ timeout: 15_000 });
  expect(await statuses(member, chatId, attachmentUrl)).toEqual({ page: 404, messages: 404, stream: 404, attachment: 404, send: 404, share: 404 });

  // Shared with the whole team as "can continue": the member continues in a copy of their own.
  await page.getByRole("button", { name: "Share", exact: true }).click();
  await chooseOption(page.getByLabel("Access"), "Can continue (in their own copy)");
  await page.getByRole("button", { name: "Share chat" }).click();
  await expect(page.getByText("Everyone in the team · can continue")).toBeVisible();
  await member.goto(`/chat/${chatId}`);
  await member.getByRole("button", { name: "Continue in my copy" }).click();
  await member.waitForURL((url) => url.pathname.startsWith("/chat/") && !url.pathname.endsWith(chatId));
  await expect(member.getByRole("textbox", { name: "Message" })).toBeVisible();
  await expect(member.getByRole("article", { name: "Your message" }).getByRole("link", { name: "meeting-notes.md" })).toBeVisible();
  await send(member, "Tell me a short story");
  await expect(answer(member)).toContainText("small robot");
  // The copy is the member's own: the owner cannot see it.
  expect((await page.request.get(member.url().replace(/^https?:\/\/[^/]+/, ""))).status()).toBe(404);

  await Promise.all([context.close(), bystander.context.close(), stranger.context.close()]);
});
