// The start-up note about the Node version: given where Next.js's request context costs CPU per promise, and only there.
import { describe, expect, it } from "vitest";
import { asyncContextNote } from "./async-context-note.mjs";

describe("asyncContextNote", () => {
  it("tells an operator on Node 20 to use Node 24", () => {
    expect(asyncContextNote("20.20.2", "")).toBe('[parley] Node 20.20.2: streaming answers costs about twice the server CPU it does on Node 24 (README, "Performance"). Use Node 24.');
  });

  it("offers Node 22 the flag that turns on AsyncContextFrame, and says nothing once it is on", () => {
    expect(asyncContextNote("22.12.0", "")).toContain("Use Node 24, or start with NODE_OPTIONS=--experimental-async-context-frame.");
    expect(asyncContextNote("22.12.0", "--max-old-space-size=4096 --experimental-async-context-frame")).toBeUndefined();
  });

  it("says nothing on Node 24 and later", () => {
    expect(asyncContextNote("24.21.0", "")).toBeUndefined();
    expect(asyncContextNote("26.1.0", "")).toBeUndefined();
  });
});
