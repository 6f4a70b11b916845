// Webhooks in Chromium against the production build: an admin adds a webhook on Admin → Notifications
// (the page passes axe) for "A member joined", copies its signing secret, and when someone joins through
// an invite a receiver on loopback gets the event, signed with that secret; the delivery is listed as
// delivered with its tries and answer.
import { expect, test } from "@playwright/test";
import { violations } from "./axe";
import { createInvite, joinWithNewAccount } from "./helpers";
import { inOwnTeam } from "./own-team";
import { startWebhookReceiver, verifySignature, type WebhookReceiver } from "../test/support/webhook-receiver";

test.use({ storageState: inOwnTeam });

let receiver: WebhookReceiver;
test.beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
test.afterAll(async () => {
  await receiver?.stop();
});

test("an admin adds a webhook and sees its signed delivery listed", async ({ page, browser }) => {
  await page.goto("/admin/notifications");
  await expect(page.getByRole("heading", { name: "Webhooks", exact: true })).toBeVisible();
  expect(await violations(page)).toEqual([]);
  const form = page.getByRole("form", { name: "New webhook" });
  await form.getByLabel("Name").fill("Team room");
  await form.getByLabel("URL").fill(receiver.url);
  await form.getByLabel(/A member joined/).check();
  await form.getByRole("button", { name: "Add webhook" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Webhook added." })).toBeVisible();
  const secret = await page.getByLabel("Signing secret").inputValue();
  expect(secret).toMatch(/^whsec_/);
  const hook = page.getByRole("listitem", { name: "Webhook Team room" });
  await expect(hook.getByText("No deliveries yet.")).toBeVisible();
  expect(await violations(page)).toEqual([]);

  const { context, user } = await joinWithNewAccount(browser, await createInvite(page));
  await context.close();
  await expect.poll(() => receiver.received.length, { timeout: 15_000 }).toBe(1);
  const [got] = receiver.received;
  expect(verifySignature(secret, got.headers["parley-signature"], got.body)).toBe(true);
  expect(JSON.parse(got.body)).toMatchObject({ kind: "member.joined", member: { email: user.email }, role: "member" });

  await page.goto("/admin/notifications");
  const row = page.getByRole("listitem", { name: "Webhook Team room" }).getByRole("row").filter({ hasText: "member.joined" });
  await expect(row).toContainText("Delivered");
  await expect(row).toContainText("HTTP 200");
});
