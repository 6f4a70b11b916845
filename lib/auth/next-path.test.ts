// After sign-in the browser goes only to a path on this site, however the `next` value is disguised.
import { describe, expect, it } from "vitest";
import { safeNextPath } from "./next-path";

describe("safeNextPath", () => {
  it("keeps paths on this site, with their query and fragment", () => {
    expect(safeNextPath("/admin/members")).toBe("/admin/members");
    expect(safeNextPath("/invite/abc_DEF-123")).toBe("/invite/abc_DEF-123");
    expect(safeNextPath("/chat/x?tab=1#end")).toBe("/chat/x?tab=1#end");
    expect(safeNextPath("/a/../admin")).toBe("/admin");
  });

  it.each([
    "/\t/evil.example/x",
    "/\n/evil.example/x",
    "/\r\n/evil.example/x",
    "/.//evil.example/x",
    "/./\\evil.example/x",
    "//evil.example/x",
    "///evil.example/x",
    "/\\evil.example/x",
    "\\\\evil.example/x",
    "/%09/evil.example/x",
    "/..//evil.example/x",
  ])("never leaves the site: %j", (next) => {
    const result = safeNextPath(next);
    expect(result.startsWith("/")).toBe(true);
    expect(result.startsWith("//")).toBe(false);
    expect(new URL(result, "https://parley.example").origin).toBe("https://parley.example");
  });

  it.each(["https://evil.example/x", "http:evil.example", "javascript:alert(1)", "JAVASCRIPT:alert(1)", "evil.example/x", "", " /chat", "data:text/html,hi"])(
    "refuses what is not a path: %j",
    (next) => expect(safeNextPath(next)).toBe("/chat"),
  );

  it("refuses what is not a string", () => {
    expect(safeNextPath(null)).toBe("/chat");
    expect(safeNextPath(undefined)).toBe("/chat");
  });
});
