// Test helper for vitest files that run turns: the usual hooks (a migrated app and a scripted
// upstream) and a promise for the stored turn. Kept apart from test-turns.ts, which child processes
// import outside vitest. Not imported by the app.
import type { LLMock } from "@copilotkit/aimock";
import { afterAll, beforeAll } from "vitest";
import { DRIVERS, startTestApp } from "../../test/support/test-app";
import type { StoredTurn } from "./store-turn";
import { startUpstream } from "./test-turns";

/**
 * Registers the usual hooks of a turn test file: a migrated PGlite app and a scripted upstream before
 * all tests, both stopped after. `onUpstream` receives the upstream once it runs.
 */
export function turnHarness(onUpstream: (mock: LLMock) => void, opts: { chunkSize?: number } = {}) {
  let stop: (() => Promise<void>) | undefined;
  let mock: LLMock | undefined;
  beforeAll(async () => {
    ({ stop } = await startTestApp(DRIVERS[0]));
    mock = await startUpstream(opts);
    onUpstream(mock);
  });
  afterAll(async () => {
    await mock?.stop();
    await stop?.();
  });
}

/** A promise for the stored turn, and the callback runTurn's `onStored` option takes. */
export function storedTurn(): { promise: Promise<StoredTurn>; onStored: (s: StoredTurn) => void } {
  let resolve!: (s: StoredTurn) => void;
  const promise = new Promise<StoredTurn>((r) => (resolve = r));
  return { promise, onStored: resolve };
}
