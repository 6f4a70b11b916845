// What both of our MCP test servers return (e2e/mcp-test-server.mjs on 2025-11-25, e2e/mcp-server-2026.mjs
// on 2026-07-28), so the tests that run against either see the same things.

import { CARD_PAGE } from "./mcp-app-page.mjs";

// A 4×4 red PNG.
export const RED_DOT = "iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAIAAAAmkwkpAAAAEElEQVR4nGP4z8AARwzEcQCukw/x0F8jngAAAABJRU5ErkJggg==";
export const APP = "text/html;profile=mcp-app";

/** A form with every kind of field an elicitation may ask for. */
export const EVERY_KIND = {
  type: "object",
  properties: {
    name: { type: "string", title: "Name", minLength: 2, maxLength: 40 },
    email: { type: "string", title: "Email", format: "email" },
    site: { type: "string", title: "Website", format: "uri" },
    day: { type: "string", title: "Day", format: "date" },
    when: { type: "string", title: "Meeting time", format: "date-time" },
    count: { type: "integer", title: "Count", minimum: 1, maximum: 10, default: 3 },
    ratio: { type: "number", title: "Ratio", minimum: 0, maximum: 1 },
    agree: { type: "boolean", title: "Agree", default: false },
    colour: { type: "string", title: "Colour", enum: ["red", "green"], default: "green" },
    size: {
      type: "string",
      title: "Size",
      oneOf: [
        { const: "s", title: "Small" },
        { const: "l", title: "Large" },
      ],
    },
    tags: {
      type: "array",
      title: "Tags",
      items: {
        anyOf: [
          { const: "a", title: "Alpha" },
          { const: "b", title: "Beta" },
        ],
      },
      maxItems: 2,
      default: ["a"],
    },
    password: { type: "string", title: "Account password", description: "The password of your account" },
  },
  required: ["name"],
};

export function searchResults(q) {
  return [
    { title: `About ${q}`, url: `https://example.com/${encodeURIComponent(q)}`, snippet: `All about ${q}.` },
    { title: "Second source", url: "https://example.org/second", snippet: "More." },
  ];
}

/** A result of `chars` characters: one text block, or 1,000-character blocks. */
export function hugeContent(chars, kind) {
  const line = "All work and no play makes Jack a dull boy. ";
  const text = (n) => line.repeat(Math.ceil(n / line.length)).slice(0, n);
  if (kind === "blocks") return Array.from({ length: Math.ceil(chars / 1000) }, (_, i) => ({ type: "text", text: `${i}:${text(1000)}` }));
  return [{ type: "text", text: `START ${text(chars)} END` }];
}

/** The card view's resource metadata: origins it may reach, some of them not allowed. */
export const CARD_META = {
  ui: { csp: { connectDomains: ["https://api.example.com"], resourceDomains: ["https://cdn.example.com", "javascript:alert(1)", "*"] } },
};
export const HUGE_VIEW = `<!doctype html><p>${"HUGE ".repeat(400_000)}</p>`;

/**
 * The resources both test servers offer (each with its SDK's McpServer and ResourceTemplate): text, an
 * image, a huge text, a template of notes (test://notes/counter reads `counter()`, which `bump` changes),
 * and the MCP Apps views (a page, one that is not a page, one too large).
 */
export function registerTestResources(server, ResourceTemplate, counter) {
  server.registerResource("readme", "test://readme", { title: "Read me", description: "A short text", mimeType: "text/plain" }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: "text/plain", text: "The launch code word is PELICAN." }],
  }));
  server.registerResource("dot", "test://dot.png", { title: "Red dot", mimeType: "image/png" }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: "image/png", blob: RED_DOT }],
  }));
  server.registerResource("huge", "test://huge", { title: "Huge text", description: "Two million characters", mimeType: "text/plain" }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: "text/plain", text: "HUGE ".repeat(400_000) }],
  }));
  server.registerResource(
    "note",
    new ResourceTemplate("test://notes/{name}", { list: undefined }),
    { title: "Note by name", mimeType: "text/plain" },
    async (uri, { name }) => ({
      contents: [{ uri: uri.href, mimeType: "text/plain", text: name === "counter" ? String(counter()) : `Note ${name}: remember the milk.` }],
    }),
  );
  server.registerResource("card", "ui://parley-test/card.html", { title: "Card view", mimeType: APP }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: APP, text: CARD_PAGE, _meta: CARD_META }],
  }));
  server.registerResource("plain-view", "ui://parley-test/plain.txt", { mimeType: "text/plain" }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: "text/plain", text: "not a page" }],
  }));
  server.registerResource("huge-view", "ui://parley-test/huge.html", { mimeType: APP }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: APP, text: HUGE_VIEW }],
  }));
}
