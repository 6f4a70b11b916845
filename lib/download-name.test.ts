// Export files are named after the chat: the title as a safe file name, sent both ways.
import { describe, expect, it } from "vitest";
import { attachmentHeader, fileNameOf } from "./download-name";

describe("a download's name", () => {
  it("is the title without path separators, reserved or control characters", () => {
    expect(fileNameOf('Plans: Q3/Q4 "draft"', "md")).toBe("Plans Q3 Q4 draft.md");
    expect(fileNameOf("../../etc/passwd", "json")).toBe("etc passwd.json");
    expect(fileNameOf("a\u0000b\r\nc", "md")).toBe("a b c.md");
    expect(fileNameOf("Café ☕ notes", "md")).toBe("Café ☕ notes.md");
  });

  it("falls back when nothing of the title is left, and stays short", () => {
    expect(fileNameOf("", "md")).toBe("chat.md");
    expect(fileNameOf(null, "md")).toBe("chat.md");
    expect(fileNameOf("///", "md")).toBe("chat.md");
    expect(fileNameOf("x".repeat(500), "md")).toHaveLength(103);
  });

  it("goes in Content-Disposition as ASCII and as UTF-8", () => {
    expect(attachmentHeader("Café ☕ notes.md")).toBe(`attachment; filename="Cafe  notes.md"; filename*=UTF-8''Caf%C3%A9%20%E2%98%95%20notes.md`);
    expect(attachmentHeader("It's (50%).md")).toBe(`attachment; filename="It's (50).md"; filename*=UTF-8''It%27s%20%2850%25%29.md`);
  });
});
