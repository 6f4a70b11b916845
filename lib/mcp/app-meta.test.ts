// What Parley reads of a tool's MCP Apps metadata, and the policy a view's page is served with.
import { describe, expect, it } from "vitest";
import { appContentSecurityPolicy, isAppMimeType, toolAppUri, toolIsAppOnly, toolIsModelOnly } from "./app-meta";

describe("a tool's view", () => {
  it("is read from _meta.ui.resourceUri (or the older flat key), only as a ui:// URI", () => {
    expect(toolAppUri({ _meta: { ui: { resourceUri: "ui://weather/view.html" } } })).toBe("ui://weather/view.html");
    expect(toolAppUri({ _meta: { "ui/resourceUri": "ui://old/view.html" } })).toBe("ui://old/view.html");
    expect(toolAppUri({ _meta: { ui: { resourceUri: "https://evil.example/page.html" } } })).toBeUndefined();
    expect(toolAppUri({ _meta: { ui: { resourceUri: "test://readme" } } })).toBeUndefined();
    expect(toolAppUri({ name: "plain" })).toBeUndefined();
  });

  it("knows tools meant for the app only or the model only", () => {
    expect(toolIsAppOnly({ _meta: { ui: { resourceUri: "ui://a/b", visibility: ["app"] } } })).toBe(true);
    expect(toolIsAppOnly({ _meta: { ui: { resourceUri: "ui://a/b" } } })).toBe(false);
    expect(toolIsModelOnly({ _meta: { ui: { visibility: ["model"] } } })).toBe(true);
    expect(toolIsModelOnly({ _meta: { ui: { visibility: ["model", "app"] } } })).toBe(false);
  });

  it("is a page only as text/html;profile=mcp-app", () => {
    expect(isAppMimeType("text/html;profile=mcp-app")).toBe(true);
    expect(isAppMimeType("text/html; profile=mcp-app")).toBe(true);
    expect(isAppMimeType("text/html")).toBe(false);
    expect(isAppMimeType(undefined)).toBe(false);
  });
});

describe("a view's policy", () => {
  it("is an opaque origin with nothing remote by default, framed by Parley only", () => {
    const csp = appContentSecurityPolicy();
    for (const d of [
      "default-src 'none'",
      "script-src 'unsafe-inline'",
      "connect-src 'none'",
      "frame-src 'none'",
      "form-action 'none'",
      "base-uri 'none'",
      "frame-ancestors 'self'",
      "sandbox allow-scripts",
    ]) {
      expect(csp).toContain(d);
    }
    expect(csp).not.toContain("allow-same-origin");
  });

  it("honours declared https/wss origins and drops anything else", () => {
    const csp = appContentSecurityPolicy({
      connectDomains: ["https://api.example.com", "wss://live.example.com", "http://plain.example.com", "*", "'self'"],
      resourceDomains: ["https://*.cdn.example.com", "javascript:alert(1)", "https://x.example.com; script-src *", 7],
    });
    expect(csp).toContain("connect-src https://api.example.com wss://live.example.com;");
    expect(csp).toContain("script-src 'unsafe-inline' https://*.cdn.example.com;");
    expect(csp).toContain("img-src data: blob: https://*.cdn.example.com;");
    expect(csp).not.toMatch(/http:\/\/|javascript:| \*[ ;]/);
  });
});
