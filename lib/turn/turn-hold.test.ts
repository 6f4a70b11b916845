// A turn frees what it holds once, the last taken first, whatever fails on the way.
import { describe, expect, it, vi } from "vitest";
import { TurnHold } from "./turn-hold";

describe("TurnHold", () => {
  it("frees everything once, the last taken first", () => {
    const hold = new TurnHold();
    const freed: string[] = [];
    hold.take(() => freed.push("slot"));
    hold.take(() => freed.push("budget"));
    hold.take(() => freed.push("chat"));
    hold.release();
    hold.release();
    expect(freed).toEqual(["chat", "budget", "slot"]);
  });

  it("does not free what was handed over", () => {
    const hold = new TurnHold();
    const freed: string[] = [];
    hold.take(() => freed.push("slot"));
    const handOver = hold.take(() => freed.push("chat"));
    handOver();
    hold.release();
    expect(freed).toEqual(["slot"]);
  });

  it("keeps freeing when one fails, synchronously or not, and says so in the log", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const hold = new TurnHold();
      const freed: string[] = [];
      hold.take(() => freed.push("slot"));
      hold.take(() => Promise.reject(new Error("database gone")));
      hold.take(() => {
        throw new Error("registry gone");
      });
      hold.release();
      expect(freed).toEqual(["slot"]);
      await vi.waitFor(() => expect(errors).toHaveBeenCalledTimes(2));
    } finally {
      errors.mockRestore();
    }
  });

  it("frees at once what is taken after the release", () => {
    const hold = new TurnHold();
    hold.release();
    const freed: string[] = [];
    hold.take(() => freed.push("late"));
    expect(freed).toEqual(["late"]);
  });
});
