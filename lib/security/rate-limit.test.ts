import { afterEach, describe, expect, it, vi } from "vitest";
import { AppError } from "../errors";
import { rateLimiter } from "./rate-limit";

describe("rateLimiter", () => {
  afterEach(() => vi.useRealTimers());

  it("allows the limit, then refuses with 429 and how long to wait, then allows again after the window", () => {
    vi.useFakeTimers();
    const limiter = rateLimiter({ limit: 3, windowMs: 60_000, message: "Slow down." });
    for (let i = 0; i < 3; i++) limiter.hit("ada");
    let err: unknown;
    try {
      limiter.hit("ada");
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ status: 429, message: "Slow down.", retryAfterSeconds: 60 });
    limiter.hit("bob"); // others are not affected
    vi.advanceTimersByTime(60_000);
    expect(() => limiter.hit("ada")).not.toThrow();
  });
});
