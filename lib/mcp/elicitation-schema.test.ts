// The elicitation form from a requested schema, and the server's check of an answer: every field kind
// MCP allows, formats, ranges, titled options, defaults, and the warning on password-like fields.
import { describe, expect, it } from "vitest";
import { checkAnswer, formOf } from "./elicitation-schema";

const schema = {
  type: "object",
  properties: {
    email: { type: "string", format: "email" },
    site: { type: "string", format: "uri" },
    day: { type: "string", format: "date" },
    at: { type: "string", format: "date-time" },
    n: { type: "integer", minimum: 1, maximum: 5, default: 2 },
    legacy: { type: "string", enum: ["x", "y"], enumNames: ["Ex", "Why"] },
    many: { type: "array", items: { type: "string", enum: ["a", "b", "c"] }, minItems: 1, maxItems: 2 },
    apiKey: { type: "string", title: "API key" },
    nested: { type: "object", properties: {} },
  },
  required: ["email"],
};

describe("elicitation form", () => {
  it("reads every field kind, with titled options and defaults; flags secrets; lists what it cannot show", () => {
    const form = formOf(schema);
    expect(form.fields.map((f) => [f.key, f.kind, f.required])).toEqual([
      ["email", "string", true],
      ["site", "string", false],
      ["day", "string", false],
      ["at", "string", false],
      ["n", "integer", false],
      ["legacy", "enum", false],
      ["many", "multi", false],
      ["apiKey", "string", false],
    ]);
    expect(form.fields.find((f) => f.key === "legacy")).toMatchObject({
      options: [
        { value: "x", label: "Ex" },
        { value: "y", label: "Why" },
      ],
    });
    expect(form.fields.filter((f) => f.secretLike).map((f) => f.key)).toEqual(["apiKey"]);
    expect(form.unsupported).toEqual(["nested"]);
  });

  it("warns on a number only when it asks for a number that is itself a secret (a PIN), not for counts of tokens or a password's length", () => {
    const form = formOf({
      type: "object",
      properties: {
        maxTokens: { type: "integer", title: "Max tokens", description: "How many tokens the summary may use" },
        length: { type: "integer", title: "Password length", minimum: 8 },
        ratio: { type: "number", title: "Secret sauce ratio" },
        pin: { type: "integer", title: "PIN" },
        token: { type: "string", title: "Access token" },
      },
    });
    expect(form.fields.filter((f) => f.secretLike).map((f) => f.key)).toEqual(["pin", "token"]);
  });

  it("accepts a fitting answer and fills defaults; refuses bad formats, ranges and options per field", () => {
    expect(checkAnswer(schema, { email: "a@b.co", at: "2026-11-24T10:00:00.000Z", many: ["a"] })).toEqual({
      ok: true,
      content: { email: "a@b.co", at: "2026-11-24T10:00:00.000Z", n: 2, many: ["a"] },
    });
    const bad = checkAnswer(schema, { email: "nope", site: "not a url", day: "2026-02-30", n: 2.5, legacy: "z", many: ["a", "a"] });
    expect(bad).toEqual({
      ok: false,
      errors: {
        email: "Enter an email address.",
        site: "Enter a full address (with https://).",
        day: "Enter a date (YYYY-MM-DD).",
        n: "Enter a whole number.",
        legacy: "Choose one of the options.",
        many: "Choose each option once.",
      },
    });
    expect(checkAnswer(schema, {})).toEqual({ ok: false, errors: { email: "Required." } });
    expect(checkAnswer(schema, { email: "a@b.co", many: ["a", "b", "c"] })).toMatchObject({ ok: false, errors: { many: "Choose at most 2." } });
    expect(checkAnswer(schema, "text")).toMatchObject({ ok: false });
  });
});
