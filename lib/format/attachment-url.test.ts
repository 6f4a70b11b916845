// Attachment urls both ways: the url the server writes, and the id read back from it.
import { describe, expect, it } from "vitest";
import { attachmentIdOf, attachmentUrl } from "./attachment-url";

describe("attachment urls", () => {
  it("reads back the id of the url it makes, and no id from other urls", () => {
    expect(attachmentIdOf(attachmentUrl("att_123-x"))).toBe("att_123-x");
    expect(attachmentIdOf("/api/attachments/a/b")).toBeUndefined();
    expect(attachmentIdOf("https://example.com/api/attachments/a")).toBeUndefined();
  });
});
