// Team knowledge in a chat, as a member lives it, in Chromium: the admin gives the team a handbook (a
// three-page PDF made here, uploaded to a team-wide knowledge base and indexed by the server's own
// job against the scripted upstream's embeddings); a member who joined by invite ticks the base in the
// composer's Knowledge picker of a new chat, asks, and sees the "Search knowledge" block with the
// passage found and an answer whose citation opens the passage viewer at page 2 of handbook.pdf with
// the passage marked and focused. After a reload the citation is still there. The picker and the
// viewer pass axe in light and dark. Then the admin sets searches to ask first, and the member's next
// search waits for their Approve before it runs. (The knowledge pages: e2e/knowledge-pages.spec.ts.)
import { expect, test, type Page } from "@playwright/test";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { THEMES, applyTheme, violations } from "./axe";
import { answer, chooseOption, createInvite, joinWithNewAccount, newChat, send } from "./helpers";
import { inOwnTeam } from "./own-team";

test.use({ storageState: inOwnTeam });

const LEAVE = "Parental leave lasts sixteen weeks at full pay for every employee.";

/** A PDF of pages of lines (a title in large type, then text). */
async function handbook(): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const [title, line] of [
    ["Welcome", "The office opens at nine and closes at five on weekdays."],
    ["Leave", LEAVE],
    ["Expenses", "Expenses are paid back within ten days of a claim."],
  ]) {
    const page = pdf.addPage([595, 842]);
    page.drawText(title, { x: 50, y: 780, size: 24, font });
    page.drawText(line, { x: 50, y: 730, size: 11, font });
  }
  return Buffer.from(await pdf.save());
}

/** As the admin: a team-wide base on the team's provider, the handbook in it, indexed. */
async function teamHandbook(page: Page): Promise<void> {
  await page.goto("/admin/providers");
  const href = await page.locator('a[href^="/admin/providers/"]').first().getAttribute("href");
  const providerId = href!.split("/").pop()!;
  const origin = { origin: new URL(page.url()).origin };
  const created = await page.request.post("/api/knowledge-bases", {
    headers: origin,
    data: { name: "Handbook", embedding: { providerId, model: "text-embedding-3-small", dimensions: 1536 } },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const upload = await page.request.post(`/api/knowledge-bases/${id}/documents`, {
    headers: origin,
    multipart: { file: { name: "handbook.pdf", mimeType: "application/pdf", buffer: await handbook() } },
  });
  expect(upload.status()).toBe(201);
  // Its status, with the reason when it waits or failed (so a failure here says why).
  const status = async () => {
    const { documents } = (await (await page.request.get(`/api/knowledge-bases/${id}/documents`)).json()) as {
      documents: { status: string; error: string | null }[];
    };
    return [documents[0]?.status, documents[0]?.error].filter(Boolean).join(": ");
  };
  await expect.poll(status, { timeout: 30_000 }).toBe("ready");
}

test("a member asks the team's handbook: the search shows as a block and the citation opens page 2 of the PDF", async ({ page, browser }) => {
  test.setTimeout(120_000);
  await teamHandbook(page);
  const { page: member, context } = await joinWithNewAccount(browser, await createInvite(page));

  await newChat(member);
  const picker = member.getByRole("button", { name: /^Knowledge/ });
  await picker.click();
  const dialog = member.getByRole("dialog", { name: "Knowledge for this chat" });
  await dialog.getByRole("checkbox", { name: "Search Handbook" }).check();
  await expect(dialog.getByText("1 document ready")).toBeVisible();
  for (const theme of THEMES) {
    await applyTheme(member, theme);
    expect(await violations(member), theme).toEqual([]);
  }
  await member.keyboard.press("Escape");
  await expect(member.getByRole("textbox", { name: "Message" })).toBeFocused();
  await expect(member.getByRole("button", { name: "Knowledge (1)" })).toBeVisible();

  await send(member, "Knowledge: how long is parental leave?");
  const reply = answer(member);
  await expect(reply).toContainText("Parental leave lasts sixteen weeks at full pay");
  const block = reply.locator('[data-tool-name="knowledge_search"]');
  await expect(block).toContainText("Search knowledge");
  await expect(block).toContainText("“parental leave weeks”");
  await expect(block.getByRole("list", { name: "Passages found" }).getByRole("link", { name: "handbook.pdf, page 2" })).toBeVisible();
  const sources = reply.getByRole("region", { name: "Sources" });
  await expect(sources).toContainText("handbook.pdf, page 2");
  await expect(sources).toContainText("Team knowledge");

  // The citation in the answer opens the passage viewer at the cited page, the passage marked and focused.
  const mark = reply.getByRole("link", { name: "Source 1: handbook.pdf, page 2" });
  const [viewer] = await Promise.all([member.waitForEvent("popup"), mark.click()]);
  await expect(viewer.getByRole("heading", { name: "handbook.pdf", level: 1 })).toBeVisible();
  await expect(viewer.getByText("page 2 of 3")).toBeVisible();
  const passage = viewer.getByRole("article", { name: "Page 2" }).locator("mark#passage");
  await expect(passage).toContainText(LEAVE);
  await expect(passage).toBeFocused();
  await expect(viewer.getByRole("link", { name: "Open the PDF at page 2" })).toHaveAttribute("href", /\/file#page=2$/);
  for (const theme of THEMES) {
    await applyTheme(viewer, theme);
    await viewer.reload();
    await expect(viewer.getByRole("article", { name: "Page 2" })).toBeVisible();
    expect(await violations(viewer), theme).toEqual([]);
  }
  await viewer.getByRole("link", { name: "Previous page" }).click();
  await expect(viewer.getByRole("article", { name: "Page 1" })).toContainText("The office opens at nine");

  // A reload keeps the citation and the block.
  await member.reload();
  await expect(answer(member).getByRole("link", { name: "Source 1: handbook.pdf, page 2" })).toBeVisible();
  await expect(answer(member).locator('[data-tool-name="knowledge_search"]')).toContainText("handbook.pdf, page 2");

  // The admin makes searches ask first: the member's next search waits for their Approve, then runs.
  await page.goto("/admin/knowledge");
  await chooseOption(page.getByLabel("Knowledge searches in chats"), "Ask every time");
  await expect(page.getByText("Saved.")).toBeVisible();
  await send(member, "Knowledge: ask first about expenses");
  const waiting = answer(member).locator('[data-tool-name="knowledge_search"]');
  await expect(waiting).toContainText("“expenses paid back”");
  await waiting.getByRole("button", { name: "Approve", exact: true }).click();
  await expect(answer(member)).toContainText("Expenses are paid back within ten days of a claim");
  await expect(answer(member).getByRole("link", { name: "Source 1: handbook.pdf, page 3" })).toBeVisible();
  await expect(answer(member).locator('[data-tool-name="knowledge_search"]')).toContainText("Approved by");
  await context.close();
});
