// New chat, every time, in Chromium: after New chat the page is empty and the next message starts a
// chat of its own, whatever was open before (a new chat that was just answered, a chat opened from the
// sidebar, a project's chat, a chat someone shared). Checked over three rounds of "New chat, ask, wait
// for the answer": the sidebar lists each chat once and each chat holds only its own question. On a
// phone-sized screen the drawer lists a new chat as soon as it is answered. A shared chat opened while
// its answer streams shows the newest message and follows it, with "Jump to latest" after scrolling up.
import { expect, test, type Browser, type Page } from "@playwright/test";
import { answer, chooseOption, createInvite, joinWithNewAccount, send } from "./helpers";
import { inOwnTeam } from "./own-team";

test.use({ storageState: inOwnTeam });

/** The catch-all answer of the scripted model (e2e/fixtures/chat.json). */
const SCRIPTED = "I am a scripted model";

const sidebar = (page: Page) => page.getByRole("complementary", { name: "Sidebar" });
const chatLinks = (page: Page) => sidebar(page).getByRole("navigation", { name: "Chats" }).getByRole("link");
const questions = (page: Page) => page.getByRole("article", { name: "Your message" });

/** A member of their own: an empty chat list to start from. */
async function freshMember(page: Page, browser: Browser) {
  return joinWithNewAccount(browser, await createInvite(page));
}

/** Clicks New chat (in the sidebar or the drawer `within`): an empty new chat at /chat. */
async function clickNewChat(page: Page, within = sidebar(page)) {
  await within.getByRole("link", { name: "New chat", exact: true }).click();
  await expect(page).toHaveURL(/\/chat$/);
  await expectEmptyNewChat(page);
  // A person types straight away (on a narrow screen the closing drawer gives focus to its Menu button).
  if (page.viewportSize()!.width >= 768) await expect(page.getByRole("textbox", { name: "Message" })).toBeFocused();
}

async function expectEmptyNewChat(page: Page, heading = "New chat") {
  await expect(page.getByRole("heading", { name: heading, level: 1 })).toBeVisible();
  await expect(page.getByText("Send a message to start a new chat")).toBeVisible();
  await expect(page.getByRole("article")).toHaveCount(0);
}

/** Asks in the open new chat and waits for the answer: the chat holds this question only. Returns its id. */
async function ask(page: Page, question: string, reply = SCRIPTED): Promise<string> {
  await send(page, question);
  await expect(page).toHaveURL(/\/chat\/[a-z0-9]{20,40}$/);
  await expect(answer(page)).toContainText(reply);
  // The turn is over: the answer can be regenerated.
  await expect(answer(page).getByRole("button", { name: "Regenerate" })).toBeVisible();
  await expect(questions(page)).toHaveCount(1);
  await expect(questions(page)).toContainText(question);
  const id = new URL(page.url()).pathname.split("/").pop()!;
  // The sidebar has the chat on top (before a click there, so that no link moves under the pointer).
  if (page.viewportSize()!.width >= 768) await expect(sidebar(page).locator(`a[href="/chat/${id}"]`)).toBeVisible();
  return id;
}

/** Each chat is listed once in the sidebar and, opened, holds its own question and nothing else. */
async function eachHoldsOnlyItsOwn(page: Page, chats: Map<string, string>) {
  for (const id of chats.keys()) await expect(sidebar(page).locator(`a[href="/chat/${id}"]`)).toHaveCount(1);
  for (const [id, question] of chats) {
    await page.goto(`/chat/${id}`);
    await expect(questions(page)).toHaveCount(1);
    await expect(questions(page)).toContainText(question);
  }
}

/** As the admin on `owner`: shares the open chat with `name`, read only (the Share dialog). */
async function shareWith(owner: Page, name: string) {
  await owner.getByRole("button", { name: "Share", exact: true }).click();
  await chooseOption(owner.getByLabel("Share with"), name);
  await owner.getByRole("button", { name: "Share chat" }).click();
  await expect(owner.getByText(`${name} · read only`)).toBeVisible();
  await owner.getByRole("button", { name: "Close" }).click();
}

test("three rounds of New chat, ask, answer: each is a chat of its own and the page is empty after each New chat", async ({ page, browser }) => {
  test.setTimeout(120_000);
  const { page: member, context } = await freshMember(page, browser);
  const chats = new Map<string, string>();
  for (let round = 1; round <= 3; round++) {
    await clickNewChat(member);
    const question = `New chat round ${round}: what is ${round} plus ${round}?`;
    chats.set(await ask(member, question), question);
  }
  expect(chats.size).toBe(3);
  await expect(chatLinks(member)).toHaveCount(3);
  await eachHoldsOnlyItsOwn(member, chats);
  await context.close();
});

test("New chat after a chat opened from the sidebar starts an empty chat of its own, three times", async ({ page, browser }) => {
  test.setTimeout(120_000);
  const { page: member, context } = await freshMember(page, browser);
  const first = "New chat from the sidebar: the chat to open";
  const openedId = await ask(member, first);
  const chats = new Map([[openedId, first]]);
  for (let round = 1; round <= 3; round++) {
    await sidebar(member).locator(`a[href="/chat/${openedId}"]`).click();
    await expect(member).toHaveURL(new RegExp(`/chat/${openedId}$`));
    await expect(questions(member)).toContainText(first);
    await clickNewChat(member);
    const question = `New chat from the sidebar, round ${round}`;
    chats.set(await ask(member, question), question);
  }
  expect(chats.size).toBe(4);
  await expect(chatLinks(member)).toHaveCount(4);
  await eachHoldsOnlyItsOwn(member, chats);
  await context.close();
});

test("New chat after a project's chat starts an empty chat of its own, outside the project, three times", async ({ page, browser }) => {
  test.setTimeout(150_000);
  const { page: member, context } = await freshMember(page, browser);
  const name = `Garden ${Date.now()}`;
  const created = await member.request.post("/api/projects", { headers: { origin: new URL(member.url()).origin }, data: { name } });
  expect(created.status()).toBe(201);
  const projectId = ((await created.json()) as { id: string }).id;
  const inProject = new Map<string, string>();
  const outside = new Map<string, string>();
  for (let round = 1; round <= 3; round++) {
    await member.goto(`/projects/${projectId}`);
    await member.getByRole("link", { name: "New chat in this project" }).click();
    await expectEmptyNewChat(member, `New chat in ${name}`);
    const projectQuestion = `New chat in a project, round ${round}`;
    inProject.set(await ask(member, projectQuestion), projectQuestion);
    await clickNewChat(member);
    const question = `New chat after a project's chat, round ${round}`;
    outside.set(await ask(member, question), question);
  }
  expect(new Set([...inProject.keys(), ...outside.keys()]).size).toBe(6);
  await eachHoldsOnlyItsOwn(member, new Map([...inProject, ...outside]));
  // The project lists its own chats and none of the others.
  await member.goto(`/projects/${projectId}`);
  const listed = member.getByRole("list", { name: "Chats", exact: true });
  for (const id of inProject.keys()) await expect(listed.locator(`a[href="/chat/${id}"]`)).toHaveCount(1);
  for (const id of outside.keys()) await expect(listed.locator(`a[href="/chat/${id}"]`)).toHaveCount(0);
  await context.close();
});

test("New chat from a chat shared with you starts an empty chat of your own, three times", async ({ page, browser }) => {
  test.setTimeout(150_000);
  const { page: member, context, user } = await freshMember(page, browser);
  // The admin's chat, shared with the member.
  await page.goto("/chat");
  const ownersQuestion = "New chat from a shared chat: the owner's question";
  const sharedId = await ask(page, ownersQuestion);
  await shareWith(page, user.name);

  const chats = new Map<string, string>();
  for (let round = 1; round <= 3; round++) {
    await member.goto("/chat");
    await member.getByRole("navigation", { name: "Shared with me" }).locator(`a[href="/chat/${sharedId}"]`).click();
    await expect(member.getByText(/Shared by Ada Admin · read only/)).toBeVisible();
    await expect(questions(member)).toContainText(ownersQuestion);
    await clickNewChat(member);
    const question = `New chat after a shared chat, round ${round}`;
    chats.set(await ask(member, question), question);
  }
  expect(chats.size).toBe(3);
  await expect(chatLinks(member)).toHaveCount(3);
  await eachHoldsOnlyItsOwn(member, chats);
  // The shared chat holds its owner's question only.
  await page.goto(`/chat/${sharedId}`);
  await expect(questions(page)).toHaveCount(1);
  await expect(questions(page)).toContainText(ownersQuestion);
  await context.close();
});

test("on a 390x844 screen the drawer lists a new chat as soon as its first answer is in", async ({ page, browser }) => {
  test.setTimeout(120_000);
  const { page: member, context } = await freshMember(page, browser);
  await member.setViewportSize({ width: 390, height: 844 });
  const drawer = member.getByRole("dialog", { name: "Menu" });
  const open = async () => {
    await member.getByRole("button", { name: "Open menu" }).click();
    await expect(drawer).toBeVisible();
  };
  const ids: string[] = [];
  for (let round = 1; round <= 2; round++) {
    const id = await ask(member, `New chat on a phone, round ${round}`);
    ids.push(id);
    await open();
    const list = drawer.getByRole("navigation", { name: "Chats" });
    for (const shown of ids) await expect(list.locator(`a[href="/chat/${shown}"]`)).toHaveCount(1);
    await expect(drawer.getByText("No chats yet.")).toHaveCount(0);
    await clickNewChat(member, drawer);
    await expect(drawer).toBeHidden();
  }
  await context.close();
});

test("a shared chat opened while its answer streams shows the newest message, follows it, and offers Jump to latest after scrolling up", async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const { page: member, context, user } = await freshMember(page, browser);
  // The owner's chat: an answer longer than the screen, shared with the member, then a slow answer.
  await page.goto("/chat");
  const chatId = await ask(page, "New chat: a long answer", "Paragraph 40 of the long answer");
  await shareWith(page, user.name);
  await send(page, "New chat: stream slowly");
  await expect(answer(page)).toContainText("Slow line 1.");

  await member.goto(`/chat/${chatId}`);
  await expect(member.getByText(/following live/)).toBeVisible();
  const lines = member
    .getByRole("article", { name: "Assistant message" })
    .last()
    .getByText(/^Slow line \d+\.$/);
  // It opens at the newest message and keeps it in view as the answer grows.
  await expect(lines.last()).toBeInViewport();
  await expect(member.getByText("Paragraph 1 of the long answer", { exact: false })).not.toBeInViewport();
  await expect(member.getByText("Slow line 20.", { exact: true })).toBeInViewport({ timeout: 30_000 });
  await expect(member.getByRole("button", { name: "Jump to latest" })).toHaveCount(0);

  // Scrolled up, the member reads in peace; "Jump to latest" takes them back to the newest message.
  const box = (await lines.last().boundingBox())!;
  await member.mouse.move(box.x + box.width / 2, box.y);
  await member.mouse.wheel(0, -5000);
  const jump = member.getByRole("button", { name: "Jump to latest" });
  await expect(jump).toBeVisible();
  await jump.click();
  await expect(jump).toHaveCount(0);
  await expect(lines.last()).toBeInViewport();
  await expect(member.getByText("Done streaming.")).toBeInViewport({ timeout: 60_000 });
  await context.close();
});
