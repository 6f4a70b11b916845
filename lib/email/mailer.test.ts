// The mailer against a real SMTP server on loopback: a message arrives with its subject, text and html;
// the server's user and password are used; email is off without settings; a server that refuses or is
// not there gives an error that names the server, never the password.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { startSmtpServer, type TestSmtpServer } from "../../test/support/smtp-server";
import { emailEnabled, EmailError, sendMail, smtpStatus } from "./mailer";

const CLEAR = { SMTP_URL: "", SMTP_HOST: "", SMTP_PORT: "", SMTP_USER: "", SMTP_PASSWORD: "", SMTP_SECURE: "", SMTP_FROM: "" };
function env(vars: Partial<typeof CLEAR>) {
  for (const [k, v] of Object.entries({ ...CLEAR, ...vars })) vi.stubEnv(k, v);
}

let open: TestSmtpServer;
let locked: TestSmtpServer;
beforeAll(async () => {
  open = await startSmtpServer();
  locked = await startSmtpServer({ user: "parley", password: "s3cret p@ss" });
});
afterAll(async () => {
  await open.close();
  await locked.close();
});
afterEach(() => vi.unstubAllEnvs());

describe("mailer", () => {
  it("is off without SMTP settings, and sending says so", async () => {
    env({});
    expect(emailEnabled()).toBe(false);
    expect(smtpStatus()).toEqual({ enabled: false });
    await expect(sendMail({ to: "a@example.test", subject: "x", text: "x" })).rejects.toThrow(/Email is off/);
  });

  it("delivers a message with its subject, text, html and sender through SMTP_URL", async () => {
    env({ SMTP_URL: open.url, SMTP_FROM: "Parley <team@example.test>" });
    expect(emailEnabled()).toBe(true);
    await sendMail({
      to: "Ada@Example.test",
      subject: "Hello Ada",
      text: "Open https://parley.example.test/x?a=1 now",
      html: '<p>Open <a href="https://parley.example.test/x?a=1&amp;b=2">it</a></p>',
    });
    const m = await open.waitFor((x) => x.subject === "Hello Ada");
    expect(m.to).toEqual(["ada@example.test"]);
    expect(m.from).toContain("team@example.test");
    expect(m.text).toContain("Open https://parley.example.test/x?a=1 now");
    expect(m.html).toContain("<p>Open");
    expect(m.links).toEqual(["https://parley.example.test/x?a=1", "https://parley.example.test/x?a=1&b=2"]);
  });

  it("signs in with the separate settings, and shows the admin everything but the password", async () => {
    env({ SMTP_HOST: "127.0.0.1", SMTP_PORT: String(locked.port), SMTP_USER: "parley", SMTP_PASSWORD: "s3cret p@ss" });
    expect(smtpStatus()).toEqual({ enabled: true, host: "127.0.0.1", port: locked.port, secure: false, user: "parley", from: "Parley <parley@localhost>" });
    await sendMail({ to: "b@example.test", subject: "Signed in", text: "hi" });
    expect((await locked.waitFor((x) => x.subject === "Signed in")).text.trim()).toBe("hi");
  });

  it("says which server failed when the password is wrong, without printing it", async () => {
    env({ SMTP_URL: `smtp://parley:wrong-password@127.0.0.1:${locked.port}` });
    const error = await sendMail({ to: "c@example.test", subject: "x", text: "x" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmailError);
    expect((error as Error).message).toContain(`127.0.0.1:${locked.port}`);
    expect((error as Error).message).not.toContain("wrong-password");
    expect(locked.failedLogins).toBeGreaterThan(0);
  });

  it("fails clearly when the server refuses the message or nothing listens", async () => {
    const refusing = await startSmtpServer({ refuse: true });
    try {
      env({ SMTP_URL: refusing.url });
      await expect(sendMail({ to: "d@example.test", subject: "x", text: "x" })).rejects.toThrow(/Could not send email through 127\.0\.0\.1:\d+: .*refused/i);
    } finally {
      await refusing.close();
    }
    env({ SMTP_URL: `smtp://127.0.0.1:${refusing.port}` });
    await expect(sendMail({ to: "d@example.test", subject: "x", text: "x" })).rejects.toThrow(/Could not send email through 127\.0\.0\.1:\d+: .*ECONNREFUSED/);
  });

  it("refuses a bad SMTP setting at start-up, naming the variable", async () => {
    const { parseConfig } = await import("../config");
    expect(() => parseConfig({ SMTP_URL: "http://mail.example.test" })).toThrow(/SMTP_URL: must be a smtp: or smtps: URL/);
    expect(() => parseConfig({ SMTP_PORT: "99999" })).toThrow(/SMTP_PORT/);
  });
});
