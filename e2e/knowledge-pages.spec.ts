// Knowledge bases in Chromium against the production build, indexed for real (the scripted upstream
// embeds with 1,536 numbers a vector): an admin makes a team-wide base on Admin → Knowledge, uploads a
// three-page PDF and a Markdown file and sees both become Ready with their page counts; the same file
// again is refused with a message; Replace makes version 2, Re-index indexes again, a URL on the
// server's own address is refused, Delete (once confirmed) removes a document; a ready document's name
// opens it in the passage viewer; the page passes axe. On a shared project's page the admin makes the
// project's base, and a member sees it there without any control to change it.
import { expect, test, type Locator, type Page } from "@playwright/test";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { violations } from "./axe";
import { createInvite, joinWithNewAccount } from "./helpers";
import { inOwnTeam } from "./own-team";

test.use({ storageState: inOwnTeam });

async function threePagePdf(): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const text of ["Refunds are paid within 30 days.", "Travel is booked in economy.", "Laptops are replaced every three years."]) {
    pdf.addPage([400, 300]).drawText(text, { x: 40, y: 200, size: 14, font });
  }
  return Buffer.from(await pdf.save());
}

const markdown = (text: string) => ({ name: "faq.md", mimeType: "text/markdown", buffer: Buffer.from(text) });
const row = (base: Locator, name: string) => base.getByRole("row").filter({ hasText: name });
/** A document's cell: 1 status, 3 pages, 6 version. */
const cell = (base: Locator, name: string, index: number) => row(base, name).getByRole("cell").nth(index);

async function createBase(page: Page, name: string) {
  const form = page.getByRole("form", { name: "New knowledge base" });
  await form.getByLabel("Name").fill(name);
  await form.getByLabel("Embedding model").fill("text-embedding-3-small");
  await expect(form.getByLabel("Dimensions")).toHaveValue("1536");
  await form.getByRole("button", { name: "Create knowledge base" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Created ${name}.` })).toBeVisible();
  return page.getByRole("listitem", { name: `Knowledge base ${name}` });
}

test("an admin builds a team-wide knowledge base: upload, index, replace, re-index, delete", async ({ page }) => {
  await page.goto("/admin/knowledge");
  await expect(page.getByRole("navigation", { name: "Admin sections" }).getByRole("link", { name: "Knowledge" })).toHaveAttribute("aria-current", "page");
  const base = await createBase(page, "Handbook");

  await base
    .getByLabel("Upload documents")
    .setInputFiles([
      { name: "policies.pdf", mimeType: "application/pdf", buffer: await threePagePdf() },
      markdown("# FAQ\n\n## Parking\n\nThe garage opens at seven.\n"),
    ]);
  await expect(cell(base, "policies.pdf", 1)).toHaveText("Ready", { timeout: 20_000 });
  await expect(cell(base, "policies.pdf", 3)).toHaveText("3");
  await expect(cell(base, "faq.md", 1)).toHaveText("Ready", { timeout: 20_000 });
  await expect(cell(base, "faq.md", 3)).toHaveText("1");
  expect(await violations(page)).toEqual([]);

  // The same bytes again, under the same name: refused, saying which document has them.
  await base.getByLabel("Upload documents").setInputFiles([markdown("# FAQ\n\n## Parking\n\nThe garage opens at seven.\n")]);
  await expect(base.getByRole("alert")).toContainText("faq.md is already in this knowledge base, as faq.md.");

  // Replace: the file chooser behind the button; the next version is indexed.
  const chooser = page.waitForEvent("filechooser");
  await base.getByRole("button", { name: "Replace faq.md" }).click();
  await (await chooser).setFiles([markdown("# FAQ\n\n## Parking\n\nThe garage opens at eight.\n")]);
  await expect(cell(base, "faq.md", 6)).toHaveText("2");
  await expect(cell(base, "faq.md", 1)).toHaveText("Ready", { timeout: 20_000 });

  const reindexed = page.waitForResponse((r) => r.url().endsWith("/reindex") && r.request().method() === "POST");
  await base.getByRole("button", { name: "Re-index policies.pdf" }).click();
  expect((await reindexed).status()).toBe(200);
  await expect(base.getByRole("button", { name: "Re-index policies.pdf" })).toBeEnabled(); // the list was read again
  await expect(cell(base, "policies.pdf", 1)).toHaveText("Ready", { timeout: 20_000 });
  await expect(cell(base, "policies.pdf", 3)).toHaveText("3");

  // A URL on this server's own address is refused (the operator has not allowed private addresses).
  await base.getByLabel("Add from URL").fill("http://127.0.0.1:9/notes.md");
  await base.getByRole("button", { name: "Add", exact: true }).click();
  await expect(base.getByRole("alert")).toContainText("it is this server's own address");

  await base.getByRole("button", { name: "Delete faq.md" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Delete “faq.md”?" });
  await confirm.getByRole("button", { name: "Delete document" }).click();
  await expect(row(base, "faq.md")).toHaveCount(0);
  await expect(row(base, "policies.pdf")).toHaveCount(1);

  // A ready document opens in the passage viewer.
  await row(base, "policies.pdf").getByRole("link", { name: "policies.pdf" }).click();
  await expect(page.getByRole("heading", { name: "policies.pdf", level: 1 })).toBeVisible();
  await expect(page.getByText("page 1 of 3")).toBeVisible();
});

test("a project's knowledge base: its editor makes it on the project's page, a member sees it without controls", async ({ page, browser }) => {
  const origin = new URL(test.info().project.use.baseURL!).origin;
  const created = await page.request.post("/api/projects", { headers: { origin }, data: { name: "Support desk", shared: true } });
  expect(created.status()).toBe(201);
  const projectId = ((await created.json()) as { id: string }).id;

  await page.goto(`/projects/${projectId}`);
  await expect(page.getByRole("heading", { name: "Knowledge", level: 2 })).toBeVisible();
  const base = await createBase(page, "Support notes");
  await expect(base.getByLabel("Upload documents")).toBeVisible();
  await expect(base.getByText("No documents yet.")).toBeVisible();

  const { page: member, context } = await joinWithNewAccount(browser, await createInvite(page));
  await member.goto(`/projects/${projectId}`);
  const seen = member.getByRole("listitem", { name: "Knowledge base Support notes" });
  await expect(seen.getByRole("heading", { name: "Support notes" })).toBeVisible();
  await expect(seen.getByLabel("Upload documents")).toHaveCount(0);
  await expect(seen.getByRole("button")).toHaveCount(0);
  await expect(member.getByRole("form", { name: "New knowledge base" })).toHaveCount(0);
  expect(await violations(member)).toEqual([]);
  await context.close();
});
