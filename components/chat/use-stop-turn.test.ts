// Stop asks again while the server has not taken up the turn: after a decision its turn may wait for
// a slot and for the answer before it (up to ~10 s), and a Stop pressed then must still stop it.
import { afterEach, describe, expect, it, vi } from "vitest";
import { askToStop, type StopAnswer } from "./use-stop-turn";

afterEach(() => vi.useRealTimers());

/** A server that has no turn to stop until `takenAfterMs`, then stops it. */
function server(takenAfterMs: number) {
  const start = Date.now();
  let asked = 0;
  const ask = async (): Promise<StopAnswer> => {
    asked++;
    return { stopped: Date.now() - start >= takenAfterMs };
  };
  return { ask, asked: () => asked };
}

describe("askToStop", () => {
  it("stops a turn the server takes up 9 s after Stop was pressed (a queued turn after a decision)", async () => {
    vi.useFakeTimers();
    const s = server(9_000);
    const stopping = askToStop(s.ask, () => true);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(await stopping).toBe(true);
  });

  it("gives up when the page no longer waits for an answer, or after its limit", async () => {
    vi.useFakeTimers();
    let waiting = true;
    const idle = server(Infinity);
    const stopping = askToStop(idle.ask, () => waiting);
    await vi.advanceTimersByTimeAsync(1_000);
    waiting = false;
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await stopping).toBe(false);
    const asked = idle.asked();
    expect(asked).toBeGreaterThan(1);
    expect(asked).toBeLessThan(10);

    const never = server(Infinity);
    const limited = askToStop(never.ask, () => true, { limitMs: 2_000 });
    await vi.advanceTimersByTimeAsync(3_000);
    expect(await limited).toBe(false);
  });

  it("stops at once when the server has the turn, and gives up on an unusable answer", async () => {
    expect(
      await askToStop(
        async () => ({ stopped: true }),
        () => true,
      ),
    ).toBe(true);
    expect(
      await askToStop(
        async () => undefined,
        () => true,
      ),
    ).toBe(false);
  });
});
