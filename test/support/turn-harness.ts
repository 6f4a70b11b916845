// Test helpers for vitest files that run turns: the usual hooks (a migrated app on each test database
// and a scripted upstream), and `runTurn` as tests call it — the app's turn (lib/turn/turn.ts) with its dependencies
// replaced where a test asks (built-in tools, step limit, idle timeout, throttle, slots, the store's
// database) — returning the browser's response and reporting the stored turn. Kept apart from
// test-turns.ts, which child processes import outside vitest. Not imported by the app.
import type { LLMock } from "@copilotkit/aimock";
import { tool, type ToolSet } from "ai";
import { afterAll, beforeAll } from "vitest";
import { z } from "zod";
import type { PrismaClient } from "@/lib/db/generated/client";
import { DATABASES, DRIVERS, startTestApp } from "./test-app";
import type { RetryPolicy } from "@/lib/messages/block-writer";
import type { StoredTurn } from "@/lib/messages/store-turn";
import { runTurn as startTurn, turnDeps, type TurnDeps, type TurnRequest } from "@/lib/turn/turn";
import type { TeamContext } from "@/lib/teams/team-context";
import type { TurnSlots } from "@/lib/turn/turn-slots";
import { startUpstream } from "./test-turns";

/** The databases turn tests run on: PGlite, and PostgreSQL too when TEST_DATABASE_URL is set. */
export { DATABASES };
export type TestDriver = (typeof DRIVERS)[number];

/**
 * Registers the usual hooks of a turn test suite: a migrated app on `driver` (PGlite unless told) and a
 * scripted upstream before its tests, both stopped after. `onUpstream` receives the upstream once it
 * runs. Called inside `describe.each(DATABASES)`, the suite runs once per database.
 */
export function turnHarness(onUpstream: (mock: LLMock) => void, opts: { chunkSize?: number; driver?: TestDriver } = {}) {
  let stop: (() => Promise<void>) | undefined;
  let mock: LLMock | undefined;
  beforeAll(async () => {
    ({ stop } = await startTestApp(opts.driver ?? DRIVERS[0]));
    mock = await startUpstream(opts);
    onUpstream(mock);
    // Migrating a fresh database takes a minute and more when the machine is busy.
  }, 180_000);
  afterAll(async () => {
    await mock?.stop();
    await stop?.();
  });
}

/** A built-in tool `add` that sums two numbers and records every call it runs (asking first when told). */
export function adderTool(opts: { needsApproval?: boolean } = {}) {
  const calls: unknown[] = [];
  const add = tool({
    description: "Adds two numbers",
    inputSchema: z.object({ a: z.number(), b: z.number() }),
    needsApproval: opts.needsApproval ?? false,
    execute: async (input) => {
      calls.push(input);
      return { sum: input.a + input.b };
    },
  });
  return { calls, add };
}

/** A promise for the stored turn, and the callback `runTurn`'s `onStored` option takes. */
export function storedTurn(): { promise: Promise<StoredTurn>; onStored: (s: StoredTurn) => void } {
  let resolve!: (s: StoredTurn) => void;
  const promise = new Promise<StoredTurn>((r) => (resolve = r));
  return { promise, onStored: resolve };
}

export type TestTurnOptions = {
  /** Built-in tools offered besides the chat's MCP tools. */
  tools?: ToolSet;
  stepLimit?: number;
  idleTimeoutMs?: number;
  throttleMs?: number;
  slots?: TurnSlots;
  /** The chat's MCP tools (tool-set.ts's assembleTools unless replaced, e.g. by one that fails). */
  mcpTools?: TurnDeps["tools"];
  /** The database the store writes through (a failing one, say). */
  storeDb?: () => Promise<PrismaClient>;
  retry?: RetryPolicy;
  onStored?: (s: StoredTurn) => void;
  /** Let the model name a chat after its first answer (off by default: that call would be the upstream's last request). */
  titles?: boolean;
};

/** The app's dependencies of a turn with the test's replacements. */
function testDeps(opts: TestTurnOptions = {}): TurnDeps {
  const deps = turnDeps();
  return {
    ...deps,
    ...(opts.slots ? { slots: opts.slots } : {}),
    ...(opts.mcpTools ? { tools: opts.mcpTools } : {}),
    extraTools: opts.tools,
    ...(opts.titles ? {} : { nameChat: async () => undefined }),
    ...(opts.stepLimit ? { stepLimit: () => opts.stepLimit! } : {}),
    ...(opts.idleTimeoutMs ? { idleTimeoutMs: () => opts.idleTimeoutMs! } : {}),
    store: {
      db: opts.storeDb ?? deps.store.db,
      throttleMs: opts.throttleMs ?? deps.store.throttleMs,
      retry: opts.retry ?? deps.store.retry,
    },
  };
}

/** Runs a turn of `ctx` and returns its streaming response; `onStored` hears the stored turn. */
export async function runTurn(ctx: TeamContext, request: TurnRequest, opts: TestTurnOptions = {}): Promise<Response> {
  const turn = await startTurn(async () => ({ ctx, request }), testDeps(opts));
  void turn.stored.then(opts.onStored, () => {});
  return turn.response;
}
