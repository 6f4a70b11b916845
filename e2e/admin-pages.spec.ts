// The admin pages as an admin sees them: the current tab is marked; the MCP server page lists each
// tool once with a status that agrees with the last test; forms show the saved value after a save
// (a model's tool-calling mode, the MCP transport after a refused stdio save); the audit log is a
// readable table with filters; a fetched model list has a filter and select all/none, and marks and
// leaves unticked the models that are not for chat.
import { expect, test, type Page } from "@playwright/test";
import { json, startScripted } from "../test/support/test-upstreams";
import { ADMIN, chooseOption } from "./helpers";
import { addEverything, adminWithEverything, createTeam } from "./admin-steps";

adminWithEverything();

const UPSTREAM = `http://127.0.0.1:${Number(process.env.E2E_UPSTREAM_PORT || 4011)}/v1`;
const checked = (select: ReturnType<Page["getByLabel"]>) => select.locator("option:checked");

async function addProvider(page: Page, name: string, baseUrl: string) {
  await page.goto("/admin/providers");
  const form = page.getByRole("form", { name: "New provider" });
  await form.getByLabel("Name").fill(name);
  await chooseOption(form.getByLabel("Kind"), /^OpenAI-compatible/);
  await form.getByLabel("Base URL").fill(baseUrl);
  await form.getByLabel("API key").fill("sk-admin-pages-0000");
  await form.getByRole("button", { name: "Add provider" }).click();
  await expect(page).toHaveURL(/\/admin\/providers\/[a-z0-9]+/);
}

test("admin pages: the current tab, tools listed once, saved values kept, a readable audit log, a usable model list", async ({ page }) => {
  test.setTimeout(180_000);
  await createTeam(page, "Admin Pages");

  // The tab of the page you are on is marked, for screen readers and by its look.
  const tabs = page.getByRole("navigation", { name: "Admin sections" });
  await expect(tabs.getByRole("link", { name: "Members" })).toHaveAttribute("aria-current", "page");
  await expect(tabs.getByRole("link", { name: "MCP servers" })).not.toHaveAttribute("aria-current", "page");
  await expect(tabs.getByRole("link", { name: "Members" })).toHaveCSS("font-weight", "600");
  await expect(tabs.getByRole("link", { name: "Providers" })).not.toHaveCSS("font-weight", "600");

  // A server: its tools once, and a status that agrees with the successful test.
  await addEverything(page);
  await expect(tabs.getByRole("link", { name: "MCP servers" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("status").filter({ hasText: /^Connected to .* tools\./ })).toBeVisible();
  await expect(page.getByLabel("Status")).toContainText("Connected");
  await expect(page.getByLabel("Status")).not.toContainText("Not connected yet");
  await expect(page.locator('[data-tool="echo"]')).toHaveCount(1);
  await expect(page.getByText("Echoes back the input string")).toHaveCount(1);

  // A refused stdio save (stdio is off here) keeps stdio chosen, with its fields.
  await page.goto("/admin/mcp");
  const form = page.getByRole("form", { name: "New MCP server" });
  await form.getByLabel("Name", { exact: true }).fill("local script");
  await chooseOption(form.getByLabel("Transport"), /^stdio/);
  await form.getByLabel("Command", { exact: true }).fill("node");
  await form.getByRole("button", { name: "Add server" }).click();
  await expect(form.getByText(/PARLEY_ALLOW_STDIO_MCP/).first()).toBeVisible();
  await expect(form.getByRole("alert").first()).toBeVisible();
  await expect(checked(form.getByLabel("Transport"))).toHaveText(/^stdio/);
  await expect(form.getByLabel("Command", { exact: true })).toBeVisible();

  // A model's tool-calling mode: the select shows what was saved, and saving again keeps it.
  await addProvider(page, "Scripted", UPSTREAM);
  await page.getByText("Add a model by id", { exact: true }).click();
  const add = page.getByRole("form", { name: "New model" });
  await add.getByLabel("Model id").fill("kbd-model");
  await add.getByRole("button", { name: "Add model" }).click();
  const models = page.getByRole("list", { name: "Models" });
  await expect(models).toContainText("kbd-model");
  await models.getByText("kbd-model").first().click();
  const edit = page.getByRole("form", { name: "Edit kbd-model" });
  await chooseOption(edit.getByLabel("Tool calling"), "Prompt-based");
  await edit.getByRole("button", { name: "Save model" }).click();
  await expect(models).toContainText("tools: prompt");
  await expect(checked(edit.getByLabel("Tool calling"))).toHaveText("Prompt-based");
  await edit.getByRole("button", { name: "Save model" }).click();
  await expect(edit.getByRole("status")).toBeVisible();
  await page.reload();
  await expect(models).toContainText("tools: prompt");
  await models.getByText("kbd-model").first().click();
  await expect(checked(page.getByRole("form", { name: "Edit kbd-model" }).getByLabel("Tool calling"))).toHaveText("Prompt-based");

  // A fetched list: chat models first, embedding and speech models marked and left unticked.
  const lister = await startScripted((req, res) =>
    req.path.endsWith("/models")
      ? json(res, 200, { object: "list", data: ["text-embedding-3-small", "chat-large", "whisper-1", "chat-small"].map((id) => ({ id, object: "model" })) })
      : json(res, 404, {}),
  );
  try {
    await addProvider(page, "Lister", `${lister.url}/v1`);
    await page.getByRole("button", { name: "Fetch models" }).click();
    const offered = page.getByRole("form", { name: "Models the provider offers" });
    await expect(offered.getByRole("listitem")).toHaveText([
      /^chat-large/,
      /^chat-small/,
      /^text-embedding-3-small.*embedding model, not for chat/,
      /^whisper-1.*not a chat model/,
    ]);
    await offered.getByRole("button", { name: "Select all" }).click();
    await expect(offered.getByLabel("chat-large")).toBeChecked();
    await expect(offered.getByLabel("chat-small")).toBeChecked();
    await expect(offered.getByLabel("text-embedding-3-small")).not.toBeChecked();
    await expect(offered.getByLabel("whisper-1")).not.toBeChecked();
    await offered.getByLabel("Filter models").fill("large");
    await expect(offered.getByRole("listitem")).toHaveText([/^chat-large/]);
    await offered.getByRole("button", { name: "Select none" }).click();
    await expect(offered.getByLabel("chat-large")).not.toBeChecked();
    await offered.getByLabel("Filter models").fill("");
    await expect(offered.getByLabel("chat-small")).toBeChecked();
    await offered.getByRole("button", { name: "Enable selected" }).click();
    await expect(offered.getByRole("status").filter({ hasText: "enabled." })).toHaveText("1 model enabled.");
  } finally {
    await lister.stop();
  }

  // The audit log: names, readable actions and details, filters.
  await page.goto("/admin/audit");
  const table = page.getByRole("region", { name: "Audit events" });
  await expect(table).toHaveAttribute("tabindex", "0");
  await expect(table.getByRole("columnheader")).toHaveText(["Time (UTC)", "Who", "Action", "Target", "Details"]);
  const created = table.getByRole("row").filter({ hasText: "Added an MCP server" }).first();
  await expect(created).toContainText(ADMIN.name);
  await expect(created).toContainText("everything");
  await expect(created).toContainText("Transport");
  await chooseOption(page.getByLabel("Action"), "Added an MCP server");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/action=mcp\.server\.create/);
  await expect(table.getByRole("row")).toHaveCount(2); // the header and the one server added
  await chooseOption(page.getByLabel("Member"), new RegExp(`^${ADMIN.name}`));
  await page.getByLabel("From").fill("2099-01-01");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page.getByText("No events match these filters.")).toBeVisible();
  await page.getByRole("link", { name: "Clear filters" }).click();
  await expect(table.getByRole("row").filter({ hasText: "Added a provider" })).toHaveCount(2);
});
