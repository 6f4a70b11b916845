// A member's unsent uploads are capped (20 files by default): past it the composer shows the server's
// reason on the refused file, and removing a waiting file frees its place (it is deleted on the server).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { createInvite, joinWithNewAccount, newChat } from "./helpers";
import { inOwnTeam } from "./own-team";

test.use({ storageState: inOwnTeam });

const CAP = 20;

test("past the unsent-upload cap the composer says why, and Remove frees a place", async ({ page, browser }) => {
  test.setTimeout(180_000);
  // A new member, so no other spec's uploads count against the cap.
  const { page: member, context } = await joinWithNewAccount(browser, await createInvite(page));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "parley-e2e-caps-"));
  const file = (i: number) => {
    const p = path.join(dir, `note-${String(i).padStart(2, "0")}.md`);
    fs.writeFileSync(p, `# Note ${i}\n`);
    return p;
  };

  await newChat(member);
  await member.locator('input[type="file"]').setInputFiles(Array.from({ length: CAP + 1 }, (_, i) => file(i)));
  const waiting = member.getByRole("list", { name: "Files to send" }).getByRole("listitem");
  await expect(waiting).toHaveCount(CAP + 1);
  await expect(waiting.and(member.locator('[data-state="uploading"]'))).toHaveCount(0, { timeout: 90_000 });
  // Exactly one was refused, and it says why.
  const refused = waiting.and(member.locator('[data-state="failed"]'));
  await expect(refused).toHaveCount(1);
  await expect(refused).toContainText(`${CAP} files are waiting to be sent. Send them, or remove some, before adding more.`);
  await expect(waiting.and(member.locator('[data-state="ready"]'))).toHaveCount(CAP);

  // Removing a waiting file deletes it on the server; then one more fits.
  const first = waiting.and(member.locator('[data-state="ready"]')).first();
  const name = (await first.locator("span").first().innerText()).trim();
  const deleted = member.waitForResponse((r) => r.request().method() === "DELETE" && /\/api\/attachments\//.test(r.url()));
  await first.getByRole("button", { name: `Remove ${name}` }).click();
  expect((await deleted).status()).toBe(204);
  await refused.getByRole("button", { name: /^Remove / }).click();
  await member.locator('input[type="file"]').setInputFiles(file(99));
  const again = waiting.filter({ hasText: "note-99.md" });
  await expect(again).toHaveAttribute("data-state", "ready", { timeout: 30_000 });
  await expect(waiting.and(member.locator('[data-state="failed"]'))).toHaveCount(0);
  await context.close();
});
