// Providers through the admin forms, in Chromium against the production build: an admin adds an
// OpenAI-compatible provider pointing at the scripted upstream (aimock), tests it, fetches and enables
// a model; a member picks it in the composer and chats with it; the pick sticks for the chat; members
// get 403 on provider pages; and no response the browser receives ever contains the key or a header
// value. A web-search model (a scripted Responses API server) answers with numbered citations that
// survive a reload.
import { expect, test, type Page, type Response } from "@playwright/test";
import { responsesWebSearch, startScripted } from "../test/support/test-upstreams";
import { chooseOption, createInvite, joinWithNewAccount, newChat, send, answer } from "./helpers";
import { inOwnTeam } from "./own-team";

test.use({ storageState: inOwnTeam });

const UPSTREAM = `http://127.0.0.1:${Number(process.env.E2E_UPSTREAM_PORT || 4011)}/v1`;
const run = Date.now().toString(36);
const KEY = `sk-e2e-PROVIDERSECRET-${run}-7f2c`;
const HEADER_VALUE = `team-HEADERSECRET-${run}`;

const KIND_LABELS: Record<string, string> = {
  openai_compatible: "OpenAI-compatible (Ollama, vLLM, LM Studio, OpenRouter)",
  openai_responses: "OpenAI (Responses API)",
  openai_chat: "OpenAI (Chat Completions)",
  anthropic: "Anthropic",
};

/** Records every response body the page receives, to prove no secret ever reaches the browser. */
/**
 * Every response body the page received. The page's live channel (/api/live) is an event stream that
 * does not end while the page is open, so its body is never complete: it is read afresh instead, up to
 * its first events (what the page was sent).
 */
function captureBodies(page: Page) {
  const bodies: Promise<string>[] = [];
  page.on("response", (res: Response) => {
    if (new URL(res.url()).pathname === "/api/live") return;
    bodies.push(
      res
        .body()
        .then((b) => b.toString("utf8"))
        .catch(() => ""),
    );
  });
  return async () => [...(await Promise.all(bodies)), await liveEvents(page)].join("\n");
}

/** The live channel's first events, as the page's own fetch reads them. */
function liveEvents(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const abort = new AbortController();
    const reader = (await fetch("/api/live", { signal: abort.signal })).body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    while (!(text.includes("event: servers") && text.endsWith("\n\n"))) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    abort.abort();
    return text;
  });
}

async function addProvider(page: Page, opts: { name: string; kind: string; baseUrl: string }) {
  await page.goto("/admin/providers");
  const form = page.getByRole("form", { name: "New provider" });
  await form.getByLabel("Name").fill(opts.name);
  await chooseOption(form.getByLabel("Kind"), KIND_LABELS[opts.kind]);
  await form.getByLabel("Base URL").fill(opts.baseUrl);
  await form.getByLabel("API key").fill(KEY);
  await form.getByLabel("Extra headers").fill(`X-Team: ${HEADER_VALUE}`);
  return form;
}

test("bad provider input shows field errors and saves nothing", async ({ page }) => {
  const form = await addProvider(page, { name: "", kind: "openai_compatible", baseUrl: "not a url" });
  const providers = page.getByRole("region", { name: "Providers" }).getByRole("listitem");
  const before = await providers.count();
  await form.getByRole("button", { name: "Add provider" }).click();
  await expect(form.getByText("Enter a name.")).toBeVisible();
  await expect(form.getByText(/Enter a valid http/)).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/providers$/);
  await page.reload();
  await expect(providers).toHaveCount(before);
  await expect(page.getByRole("region", { name: "Providers" })).not.toContainText("not a url");
});

test("admin adds, tests and fills a provider; a member chats with its model; the key never reaches a browser", async ({ page, browser }) => {
  test.setTimeout(90_000);
  const adminBodies = captureBodies(page);
  const name = `Local aimock ${run}`;
  const form = await addProvider(page, { name, kind: "openai_compatible", baseUrl: UPSTREAM });

  await form.getByRole("button", { name: "Test connection" }).click();
  // As many models as the upstream lists (its fixtures name some of their own).
  const listed = ((await (await fetch(`${UPSTREAM}/models`)).json()) as { data: unknown[] }).data.length;
  await expect(form.getByRole("status").filter({ hasText: "Connection works" })).toContainText(`lists ${listed} model${listed === 1 ? "" : "s"}.`);

  // A wrong base URL shows the provider's own failure next to the form, without hanging.
  await form.getByLabel("Base URL").fill(UPSTREAM.replace(/\/v1$/, "/nowhere"));
  await form.getByRole("button", { name: "Test connection" }).click();
  await expect(form.getByRole("alert").filter({ hasText: "Connection failed" })).toContainText("HTTP 404");
  await form.getByLabel("Base URL").fill(UPSTREAM);

  await form.getByRole("button", { name: "Add provider" }).click();
  await expect(page).toHaveURL(/\/admin\/providers\/[a-z0-9]+/);
  await expect(page.getByRole("heading", { name })).toBeVisible();
  await expect(page.getByText("Stored key: sk-...7f2c")).toBeVisible();

  await page.getByRole("button", { name: "Fetch models" }).click();
  const offered = page.getByRole("form", { name: "Models the provider offers" });
  await offered.getByLabel("local-llama").check();
  await offered.getByRole("button", { name: "Enable selected" }).click();
  await expect(offered.getByRole("status")).toHaveText("1 model enabled.");
  await expect(page.getByRole("list", { name: "Models" })).toContainText("local-llama");

  // Editing with an empty key keeps the stored key.
  const edit = page.getByRole("form", { name: "Edit provider" });
  await edit.getByRole("button", { name: "Save provider" }).click();
  await expect(edit.getByRole("status")).toHaveText("Provider saved.");
  await page.reload();
  await expect(page.getByText("Stored key: sk-...7f2c")).toBeVisible();

  // A member picks the model in the composer and chats with it.
  const invite = await createInvite(page);
  const { page: member, context } = await joinWithNewAccount(browser, invite);
  const memberBodies = captureBodies(member);
  await newChat(member);
  await chooseOption(member.getByLabel("Model", { exact: true }), "local-llama");
  await send(member, "Hello local model");
  await expect(answer(member)).toContainText("Hello from local-llama");
  await member.reload();
  await expect(answer(member)).toContainText("Hello from local-llama");
  await expect(member.getByLabel("Model", { exact: true }).locator("option:checked")).toHaveText("local-llama");

  // Members are refused from provider pages.
  expect((await member.goto("/admin/providers"))?.status()).toBe(403);
  const providerPath = new URL(page.url()).pathname;
  expect((await member.goto(providerPath))?.status()).toBe(403);

  const seen = (await adminBodies()) + (await memberBodies());
  expect(seen.length).toBeGreaterThan(1000);
  expect(seen).toContain("event: servers"); // the live channel was read too
  expect(seen).not.toContain(KEY);
  expect(seen).not.toContain("PROVIDERSECRET");
  expect(seen).not.toContain(HEADER_VALUE);
  await context.close();
});

test("a stored key is never sent to a base URL on another server: Test connection and Save with an empty key are refused", async ({ page }) => {
  test.setTimeout(60_000);
  // The admin's own server, capturing whatever it is sent.
  const capture = await startScripted((req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ data: [{ id: "captured" }] }));
  });
  try {
    const form = await addProvider(page, { name: `Moved ${run}`, kind: "openai_compatible", baseUrl: UPSTREAM });
    await form.getByRole("button", { name: "Add provider" }).click();
    await expect(page).toHaveURL(/\/admin\/providers\/[a-z0-9]+/);
    const edit = page.getByRole("form", { name: "Edit provider" });
    await expect(edit.getByText(/a base URL on another server needs the key again/)).toBeVisible();

    await edit.getByLabel("Base URL").fill(`${capture.url}/v1`);
    await edit.getByRole("button", { name: "Test connection" }).click();
    await expect(edit.getByText(/enter this secret again/).first()).toBeVisible();
    await edit.getByRole("button", { name: "Save provider" }).click();
    await expect(edit.getByText(/enter this secret again/).first()).toBeVisible();
    expect(capture.requests).toHaveLength(0);
    await page.reload();
    await expect(page.getByRole("form", { name: "Edit provider" }).getByLabel("Base URL")).toHaveValue(UPSTREAM);

    // With the key (and headers) entered again for the new server, only what was typed goes there.
    const again = page.getByRole("form", { name: "Edit provider" });
    await again.getByLabel("Base URL").fill(`${capture.url}/v1`);
    await again.getByLabel("API key").fill("sk-typed-for-this-server");
    await again.getByLabel("Extra headers").fill("X-Other: typed");
    await again.getByRole("button", { name: "Test connection" }).click();
    await expect(again.getByRole("status").filter({ hasText: "Connection works" })).toBeVisible();
    expect(capture.requests.map((r) => r.headers.authorization)).toEqual(["Bearer sk-typed-for-this-server"]);
    expect(JSON.stringify(capture.requests)).not.toContain("PROVIDERSECRET");
    expect(JSON.stringify(capture.requests)).not.toContain(HEADER_VALUE);
  } finally {
    await capture.stop();
  }
});

test("a web-search model answers with numbered citations that survive a reload", async ({ page }) => {
  test.setTimeout(60_000);
  const text = "Parley keeps citations as rows. Numbers follow first appearance.";
  const cites = [
    { url: "https://docs.example.com/parley/citations", title: "Citations in Parley", cite: "keeps citations as rows" },
    { url: "https://blog.example.org/numbering", title: "How sources are numbered", cite: "follow first appearance" },
  ];
  const upstream = await startScripted((_req, res) => responsesWebSearch(res, text, cites));
  try {
    const form = await addProvider(page, { name: `Search ${run}`, kind: "openai_responses", baseUrl: `${upstream.url}/v1` });
    await form.getByRole("button", { name: "Add provider" }).click();
    await expect(page).toHaveURL(/\/admin\/providers\/[a-z0-9]+/);
    await page.getByText("Add a model by id", { exact: true }).click();
    const model = page.getByRole("form", { name: "New model" });
    await model.getByLabel("Model id").fill("gpt-search");
    await model.getByLabel("Display name").fill(`Search model ${run}`);
    await model.getByLabel("Web search").check();
    await model.getByRole("button", { name: "Add model" }).click();
    await expect(model.getByRole("status")).toHaveText("Model added.");

    await newChat(page);
    await chooseOption(page.getByLabel("Model", { exact: true }), `Search model ${run} · web search`);
    await send(page, "What does Parley do with citations?");
    const reply = answer(page);
    await expect(reply).toContainText("Numbers follow first appearance");
    const check = async () => {
      await expect(reply.locator("[data-citation]")).toHaveText(["1", "2"]);
      await expect(reply.locator('[data-citation="1"]')).toHaveAttribute("href", cites[0].url);
      const sources = reply.getByRole("region", { name: "Sources" });
      await expect(sources.getByRole("listitem")).toHaveCount(2);
      await expect(sources.getByRole("link", { name: "Citations in Parley" })).toHaveAttribute("href", cites[0].url);
      // Hovered again until the tooltip shows: the page may still move the mark (the stored answer
      // replaces the live one, the list scrolls) after the pointer reached it.
      const tooltip = reply.getByRole("tooltip").filter({ hasText: "How sources are numbered" });
      await expect(async () => {
        await reply.locator('[data-citation="2"]').hover();
        await expect(tooltip).toBeVisible({ timeout: 1_000 });
      }).toPass();
      await expect(tooltip).toContainText("blog.example.org");
    };
    await check();
    await page.reload();
    await expect(answer(page)).toContainText("Numbers follow first appearance");
    await check();
    // The answer's request offered the provider's web search tool (the chat's title call, which comes
    // after it, offers no tools).
    const answerRequests = upstream.requests.filter((r) => !r.body.includes("You name chat conversations."));
    expect(JSON.parse(answerRequests.at(-1)!.body).tools).toEqual([expect.objectContaining({ type: "web_search" })]);
  } finally {
    await upstream.stop();
  }
});

test("an admin disables, enables and deletes a provider; deleting asks first", async ({ page }) => {
  const name = `Short-lived ${run}`;
  const form = await addProvider(page, { name, kind: "openai_compatible", baseUrl: UPSTREAM });
  await form.getByRole("button", { name: "Add provider" }).click();
  await expect(page).toHaveURL(/\/admin\/providers\/[a-z0-9]+/);
  const availability = page.getByRole("region", { name: "Availability" });

  await availability.getByRole("button", { name: "Disable provider" }).click();
  await expect(availability.getByRole("status")).toHaveText("Provider disabled: its models are no longer offered.");
  await expect(page.getByText(/· disabled/)).toBeVisible();
  await availability.getByRole("button", { name: "Enable provider" }).click();
  await expect(availability.getByRole("status")).toHaveText("Provider enabled.");
  await expect(page.getByText(/· disabled/)).toHaveCount(0);

  // Cancel keeps it; confirming deletes it and goes back to the list.
  await availability.getByRole("button", { name: "Delete provider" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Delete this provider?" });
  await expect(confirm).toContainText("Chats that used them fall back to the team default.");
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(confirm).toBeHidden();
  await expect(availability.getByRole("button", { name: "Delete provider" })).toBeFocused();
  await availability.getByRole("button", { name: "Delete provider" }).click();
  await page.getByRole("alertdialog", { name: "Delete this provider?" }).getByRole("button", { name: "Delete provider" }).click();
  await expect(page).toHaveURL(/\/admin\/providers$/);
  await expect(page.getByRole("region", { name: "Providers" })).not.toContainText(name);
});
