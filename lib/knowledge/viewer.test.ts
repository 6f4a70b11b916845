// Which page the passage viewer opens and what it marks: a citation of the current version opens the
// page holding its start with the part on that page marked; one of a replaced version opens nothing
// marked and says so; a page number opens that page; nonsense opens the first page.
import { describe, expect, it } from "vitest";
import { passageView } from "./viewer";

const doc = {
  version: 2,
  text: "a".repeat(100) + "b".repeat(100) + "c".repeat(50),
  pages: [
    { number: 1, start: 0, end: 100 },
    { number: 2, start: 100, end: 200 },
    { number: 3, start: 200, end: 250 },
  ],
};

describe("passageView", () => {
  it("opens the cited page with the passage marked, cut to the page when it runs on", () => {
    expect(passageView(doc, { version: 2, from: 120, to: 160 })).toEqual({ page: doc.pages[1], mark: { start: 120, end: 160 }, stale: false });
    expect(passageView(doc, { version: 2, from: 180, to: 230 })).toMatchObject({ page: doc.pages[1], mark: { start: 180, end: 200 } });
  });

  it("a citation of a replaced version marks nothing and says so", () => {
    expect(passageView(doc, { version: 1, from: 120, to: 160 })).toEqual({ page: doc.pages[0], mark: undefined, stale: true });
  });

  it("a page number opens that page; a range past the text or backwards, or no page, opens the first", () => {
    expect(passageView(doc, { page: 3 })).toMatchObject({ page: doc.pages[2], mark: undefined });
    expect(passageView(doc, { version: 2, from: 10, to: 9_999 })).toMatchObject({ page: doc.pages[0], mark: undefined });
    expect(passageView(doc, { version: 2, from: 50, to: 40 })).toMatchObject({ page: doc.pages[0], mark: undefined });
    expect(passageView(doc, { page: 99 })).toMatchObject({ page: doc.pages[0] });
    expect(passageView({ ...doc, pages: [], text: "" }, {})).toEqual({ page: undefined, mark: undefined, stale: false });
  });
});
