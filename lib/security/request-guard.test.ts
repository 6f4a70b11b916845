// The checks proxy.ts makes before Next.js routes a request: broken paths, cross-origin writes, and
// server-action bodies Next would answer with a 500.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { actionBodyProblem, isActionRequest, jsonProblem } from "./action-guard";
import { crossOriginProblem, pathProblem, rawPathOf } from "./request-guard";

describe("pathProblem", () => {
  it("refuses broken percent-encoding and NUL, passes the rest", () => {
    expect(pathProblem("/chat/%E0%A4%A")?.status).toBe(400);
    expect(pathProblem("/chat/%zz")?.status).toBe(400);
    expect(pathProblem("/chat/%C0%AF")?.status).toBe(400); // overlong UTF-8
    expect(pathProblem("/chat/abc%00")?.status).toBe(400);
    expect(pathProblem("/chat/caf%C3%A9")).toBeUndefined();
    expect(pathProblem("/admin/mcp/cm1abc")).toBeUndefined();
  });
  it("never throws, whatever the path", () => {
    const piece = fc.constantFrom("/", "a", "%", "%E0", "%A4", "%00", "%2F", "%C3%A9", "%ZZ", "%F0%9F", "é", "\uD800");
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (parts) => {
        const problem = pathProblem(parts.join(""));
        expect(problem === undefined || problem.status === 400).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
  it("reads the raw path of absolute and relative targets", () => {
    expect(rawPathOf("http://localhost:3000/chat/%E0?x=1")).toBe("/chat/%E0");
    expect(rawPathOf("/a/b?c#d")).toBe("/a/b");
    expect(rawPathOf("http://localhost:3000")).toBe("/");
  });
});

describe("crossOriginProblem", () => {
  const post = (origin: string | null, host = "127.0.0.1:3000", secFetchSite: string | null = null, publicUrl?: string) =>
    crossOriginProblem({ method: "POST", host, origin, secFetchSite, publicUrl });

  it("passes the app's own origin, and loopback names on the same port without a public URL", () => {
    expect(post("http://127.0.0.1:3000")).toBeUndefined();
    expect(post("http://localhost:3000")).toBeUndefined();
    expect(post("http://[::1]:3000")).toBeUndefined();
    expect(post("https://chat.example.com", "10.0.0.5:3000", null, "https://chat.example.com")).toBeUndefined();
  });
  it("refuses another port of the same host (same site), other sites and opaque origins", () => {
    expect(post("http://127.0.0.1:3005")?.status).toBe(403);
    expect(post("http://localhost:3005")?.status).toBe(403);
    expect(post("http://evil.example")?.status).toBe(403);
    expect(post("null")?.status).toBe(403);
    expect(post("http://localhost:3000", "chat.example.com", null, "https://chat.example.com")?.status).toBe(403);
  });
  it("without Origin, goes by Sec-Fetch-Site; with neither, it is no browser", () => {
    expect(post(null, "127.0.0.1:3000", "same-site")?.status).toBe(403);
    expect(post(null, "127.0.0.1:3000", "cross-site")?.status).toBe(403);
    expect(post(null, "127.0.0.1:3000", "same-origin")).toBeUndefined();
    expect(post(null)).toBeUndefined();
  });
  it("lets reads through from anywhere", () => {
    expect(crossOriginProblem({ method: "GET", host: "127.0.0.1:3000", origin: "http://evil.example", secFetchSite: "cross-site" })).toBeUndefined();
  });
});

describe("server-action bodies", () => {
  const info = (contentType: string | null, nextAction: string | null = "7f00") => ({ method: "POST", pathname: "/chat", contentType, nextAction });
  const bytes = (s: string) => new TextEncoder().encode(s).buffer as ArrayBuffer;

  it("knows what Next treats as an action", () => {
    expect(isActionRequest(info("text/plain"))).toBe(true);
    expect(isActionRequest(info("multipart/form-data; boundary=x", null))).toBe(true);
    expect(isActionRequest({ ...info("text/plain"), pathname: "/api/chat" })).toBe(false);
    expect(isActionRequest({ ...info("text/plain"), method: "GET" })).toBe(false);
  });
  it("passes what React's client sends, refuses the rest", async () => {
    expect(await actionBodyProblem(bytes('["cm1abc"]'), info("text/plain;charset=UTF-8"))).toBeUndefined();
    expect((await actionBodyProblem(bytes("not json"), info("text/plain")))?.status).toBe(400);
    expect((await actionBodyProblem(bytes('{"a":1}'), info("text/plain")))?.status).toBe(400);
    expect((await actionBodyProblem(bytes('["a\\u0000b"]'), info("text/plain")))?.status).toBe(400);
    expect((await actionBodyProblem(bytes("[".repeat(5000) + "]".repeat(5000)), info("text/plain")))?.status).toBe(400);
    expect((await actionBodyProblem(new Uint8Array(1024 * 1024 + 1).buffer, info("text/plain")))?.status).toBe(413);
    expect((await actionBodyProblem(bytes("--x\r\nbroken"), info("multipart/form-data; boundary=x")))?.status).toBe(400);
  });
  it("checks multipart fields", async () => {
    const form = new FormData();
    form.append("1_name", "Ada");
    form.append("0", '["$K1"]');
    const req = new Request("http://x/", { method: "POST", body: form });
    const body = await req.arrayBuffer();
    const type = req.headers.get("content-type");
    expect(await actionBodyProblem(body, info(type))).toBeUndefined();
    const bad = new FormData();
    bad.append("1_name", "A\0da");
    const badReq = new Request("http://x/", { method: "POST", body: bad });
    expect((await actionBodyProblem(await badReq.arrayBuffer(), info(badReq.headers.get("content-type"))))?.status).toBe(400);
  });
  it("accepts the references the app's calls produce, refuses the ones Next would answer with a 500", () => {
    for (const ok of ['[{"ok":false},"$K1"]', '["$$dollar"]', '["$undefined","$NaN","$-0","$D2026-01-01T00:00:00.000Z"]', `["$n${"9".repeat(300)}"]`]) {
      expect(jsonProblem(ok, true), ok).toBeUndefined();
    }
    for (const bad of [
      '["$Q1"]',
      '["$@1"]',
      '["$B1"]',
      '["$A1"]',
      '["$R1"]',
      '["$h1"]',
      '["$T1"]',
      '["$1"]',
      '["$Z"]',
      `["$n${"9".repeat(301)}"]`,
      '["$nabc"]',
      JSON.stringify(new Array(101).fill(0)),
    ]) {
      expect(jsonProblem(bad, true), bad).toBeDefined();
    }
    expect(jsonProblem('["$@1"]', true, new Set([1]))).toBeUndefined(); // a part that is there
  });
  it("an escaped backslash before u0000 is text, not NUL", () => {
    expect(jsonProblem('["\\\\u0000"]', true)).toBeUndefined();
  });
});
