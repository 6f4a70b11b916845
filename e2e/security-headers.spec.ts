// Security headers on every page: a Content-Security-Policy with a fresh nonce (scripts only with
// it, no remote images, no framing), X-Frame-Options, nosniff, a referrer policy and a minimal
// permissions policy; the pages still hydrate under it, with no CSP violation. The signed-in admin
// page cannot be framed by another site, and a remote image is not fetched.
import http from "node:http";
import { expect, test, type Page } from "@playwright/test";
import { inOwnTeam } from "./own-team";

const PORT = Number(process.env.E2E_PORT || 3210);
// "localhost" like the app: the same site on another port, so SameSite=Lax cookies are sent to frames.
const OTHER = `http://localhost:${PORT + 6}`;

test.use({ storageState: inOwnTeam });

/** Requests the other origin received (an image fetch would show here). */
const received: string[] = [];
let server: http.Server;
test.beforeAll(async () => {
  server = http.createServer((req, res) => {
    received.push(req.url ?? "");
    if (req.url === "/frame") {
      res
        .writeHead(200, { "content-type": "text/html" })
        .end(`<!doctype html><iframe id="f" src="http://localhost:${PORT}/admin/members" width="800" height="600"></iframe>`);
    } else res.writeHead(200, { "content-type": "image/gif" }).end(Buffer.from("R0lGODlhAQABAAAAACw=", "base64"));
  });
  await new Promise<void>((resolve) => server.listen(PORT + 6, "127.0.0.1", resolve));
});
test.afterAll(async () => new Promise<void>((resolve) => server.close(() => resolve())));

function watchCsp(page: Page): string[] {
  const violations: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy|Refused to (load|execute|apply)/i.test(m.text())) violations.push(m.text());
  });
  return violations;
}

test("every page sends the security headers and works under its CSP", async ({ page, request }) => {
  const violations = watchCsp(page);
  const chatId = (await (await request.post("/api/chats")).json()).id as string;
  const paths = ["/chat", `/chat/${chatId}`, "/settings", "/teams/new", "/admin", "/admin/members", "/admin/providers", "/admin/mcp", "/admin/audit"];
  const nonces = new Set<string>();
  for (const path of paths) {
    const res = await page.goto(path);
    expect(res, path).not.toBeNull();
    const h = res!.headers();
    const csp = h["content-security-policy"] ?? "";
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce, `${path}: CSP nonce`).toBeTruthy();
    nonces.add(nonce!);
    for (const directive of [
      "script-src 'self' 'nonce-",
      "'strict-dynamic'",
      "img-src 'self' data: blob:",
      "connect-src 'self'",
      "frame-ancestors 'none'",
      "base-uri 'none'",
      "form-action 'self'",
      "object-src 'none'",
    ]) {
      expect(csp, `${path}: ${directive}`).toContain(directive);
    }
    expect(csp).not.toContain("'unsafe-eval'");
    expect(h["x-frame-options"], path).toBe("DENY");
    expect(h["x-content-type-options"], path).toBe("nosniff");
    expect(h["referrer-policy"], path).toBe("strict-origin-when-cross-origin");
    expect(h["permissions-policy"], path).toContain("camera=()");
    // Next's own scripts carry the nonce, and the page hydrated (a client component answers).
    expect(await page.locator(`script[nonce]`).count(), path).toBeGreaterThan(0);
    await page.waitForFunction(() => !!(window as unknown as { next?: { version?: string } }).next?.version);
  }
  expect(nonces.size).toBe(paths.length); // a fresh nonce per response

  // The signed-out pages too, and an API response.
  const signedOut = await request.get("/api/health");
  expect(signedOut.headers()["x-content-type-options"]).toBe("nosniff");
  expect(signedOut.headers()["content-security-policy"]).toContain("default-src 'none'");
  expect(violations).toEqual([]);
});

test("the theme script runs under the CSP, and the chat still streams", async ({ page }) => {
  const violations = watchCsp(page);
  await page.emulateMedia({ colorScheme: "dark" });
  await page.context().clearCookies({ name: "parley_theme" });
  await page.goto("/chat");
  await expect(page.locator("html")).toHaveClass(/dark/);
  expect(violations).toEqual([]);
});

test("a remote image is not fetched: CSP img-src blocks it", async ({ page }) => {
  const violations = watchCsp(page);
  await page.goto("/chat");
  received.length = 0;
  const blocked = await page.evaluate(
    (src) =>
      new Promise<string>((resolve) => {
        document.addEventListener("securitypolicyviolation", (e) => resolve(e.violatedDirective), { once: true });
        const img = document.createElement("img");
        img.src = src;
        document.body.append(img);
      }),
    `${OTHER}/pixel.gif?leak=secret`,
  );
  expect(blocked).toBe("img-src");
  expect(received).toEqual([]);
  expect(violations.length).toBeGreaterThan(0); // the browser reported the blocked image
});

test("the signed-in admin page cannot be framed by another site", async ({ page }) => {
  const framed = page.waitForResponse((r) => r.url().endsWith("/admin/members"));
  await page.goto(`${OTHER}/frame`);
  const response = await framed;
  expect(response.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
  const frame = page.frames().find((f) => f !== page.mainFrame());
  expect(frame).toBeDefined();
  // The browser refused to render it: the frame holds no part of the admin page.
  await expect.poll(async () => (await frame!.content().catch(() => "")).includes("Invite")).toBe(false);
  expect(await page.frameLocator("#f").getByRole("button", { name: "Create invite link" }).count()).toBe(0);
});
