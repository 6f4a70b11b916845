// better-auth's own limit per client address on its HTTP endpoints (100 requests a minute; its
// stricter defaults, such as 3 a 10 s on password changes, stay), counted in the shared
// store (Redis with REDIS_URL, else this process). Keyed by the address lib/security/client-address.ts
// worked out (app/api/auth sets it as CLIENT_HEADER); when it is unknown, this limit is off rather
// than one bucket shared by everyone — the sign-in limits per account still hold. Password sign-in
// has none of it: one guesser behind an office's address would use up that address's allowance for
// everyone there; lib/auth/sign-in-limits.ts limits it by account and by account and address instead.
import type { BetterAuthOptions } from "better-auth";
import { CLIENT_HEADER } from "../security/client-address";
import { counter, RateLimiterRes, retryAfterSeconds, type Counter } from "../security/rate-limit";

const counters = new Map<string, Counter>();
const counterFor = (window: number, max: number) => {
  const name = `auth-${window}-${max}`;
  let c = counters.get(name);
  if (!c) counters.set(name, (c = counter({ name, points: max, durationSec: window })));
  return c;
};

export const authRateLimit = {
  enabled: true,
  window: 60,
  max: 100,
  customRules: { "/sign-in/email": false, "/**": (req, rule) => (req.headers.get(CLIENT_HEADER) ? rule : false) },
  customStorage: {
    async consume(key, rule) {
      try {
        await counterFor(rule.window, rule.max).consume(key);
        return { allowed: true, retryAfter: null };
      } catch (err) {
        if (err instanceof RateLimiterRes) return { allowed: false, retryAfter: retryAfterSeconds(err) };
        throw err;
      }
    },
  },
} satisfies BetterAuthOptions["rateLimit"];
