// Password guessing, slowed on every sign-in path (better-auth's endpoint and the sign-in form both
// pass through `admitSignIn` / `signInSucceeded`, from lib/auth/guards.ts). Counted in Redis when
// REDIS_URL is set, so every app process counts together. The rules:
// - Per account and client address: 5 failures are free, then each further attempt must wait 1 s,
//   2 s, 4 s … up to 60 s after the previous one. A success clears it.
// - Per account, from every address: past 20 failures in 15 minutes the account is under attack and
//   every address must wait 10 s between its attempts on it, from its first failure on.
// - Per client address, over all accounts (spraying): past 300 failures in an hour the address gets no
//   free failures on any account: after each failure there, its next attempt on that account waits at
//   least 10 s (growing as above, to 60 s). The address is never refused outright: one guesser
//   behind an office's NAT must not lock the office out.
// Nobody's failures refuse the owner outright: a correct password from an address with no failures
// on the account is checked at once, and after a mistake the owner waits at most 60 s. better-auth's
// own per-address limit is off for this endpoint (lib/auth/auth-rate-limit.ts): these rules replace it.
// When the client's address is unknown (see lib/security/client-address.ts) only the per-account
// rules apply, keyed by the account alone.
import { TooMany } from "../errors";
import { addressBucket } from "../security/client-address";
import { counter, RateLimiterRes, retryAfterSeconds } from "../security/rate-limit";

export const FREE_FAILURES = 5;
export const MAX_WAIT_S = 60;
export const UNDER_ATTACK_FAILURES = 20;
export const UNDER_ATTACK_WAIT_S = 10;
export const ADDRESS_FAILURES = 300;
const QUARTER_HOUR = 15 * 60;
const HOUR = 60 * 60;

/** Failures per account and address (an attempt counts as one until it succeeds). */
const pairFailures = counter({ name: "sign-in-pair", points: 1_000_000, durationSec: HOUR });
/** Opened by an attempt for the wait the next one must keep; an attempt while it is open is refused. */
const pairTurn = counter({ name: "sign-in-turn", points: 1, durationSec: 1 });
const accountFailures = counter({ name: "sign-in-account", points: 1_000_000, durationSec: QUARTER_HOUR });
const addressFailures = counter({ name: "sign-in-address-failures", points: 1_000_000, durationSec: HOUR });

/**
 * Seconds the next attempt must wait once `failures` attempts (this one included) have failed: with
 * `free` failures free, then 1 s, 2 s, 4 s … up to MAX_WAIT_S; at least UNDER_ATTACK_WAIT_S when wary.
 */
function waitSeconds(failures: number, free: number, wary: boolean): number {
  const backoff = failures >= Math.max(free, 1) ? Math.min(2 ** (failures - Math.max(free, 1)), MAX_WAIT_S) : 0;
  return Math.max(backoff, wary && failures > 0 ? UNDER_ATTACK_WAIT_S : 0);
}

const refusal = (res: RateLimiterRes) => {
  const seconds = retryAfterSeconds(res);
  return TooMany(`Too many sign-in attempts. Wait ${seconds} second${seconds === 1 ? "" : "s"} and try again.`, seconds);
};

type Keys = { account: string; pair: string; address?: string };
const keys = (email: string, address: string | undefined): Keys => {
  const account = email.trim().toLowerCase();
  const bucket = address ? addressBucket(address) : undefined;
  return { account, pair: bucket ? `${account}\n${bucket}` : account, address: bucket };
};

/**
 * Counts a sign-in attempt before its password is checked; throws a 429 AppError with Retry-After
 * when it must wait. The attempt counts as a failure until `signInSucceeded` says otherwise.
 */
export async function admitSignIn(email: string, address: string | undefined): Promise<void> {
  const k = keys(email, address);
  // This attempt's number among the pair's unsuccessful ones (atomic: a burst gets 1, 2, 3 …).
  const failures = (await pairFailures.consume(k.pair)).consumedPoints;
  const underAttack = ((await accountFailures.get(k.account))?.consumedPoints ?? 0) >= UNDER_ATTACK_FAILURES;
  const spraying = !!k.address && ((await addressFailures.get(k.address))?.consumedPoints ?? 0) >= ADDRESS_FAILURES;
  const wait = waitSeconds(failures, spraying ? 0 : FREE_FAILURES, underAttack || spraying);
  if (wait > 0) {
    try {
      // Refused while the previous attempt's wait runs; otherwise opens the wait for the next one.
      await pairTurn.consume(k.pair, 1, { customDuration: wait });
    } catch (err) {
      await pairFailures.reward(k.pair);
      if (err instanceof RateLimiterRes) throw refusal(err);
      throw err;
    }
  }
  await Promise.all([accountFailures.consume(k.account), k.address ? addressFailures.consume(k.address) : undefined]);
}

/** The password was right: this address's failures on the account are forgotten. */
export async function signInSucceeded(email: string, address: string | undefined): Promise<void> {
  const k = keys(email, address);
  await Promise.all([
    pairFailures.delete(k.pair),
    pairTurn.delete(k.pair),
    accountFailures.reward(k.account),
    k.address ? addressFailures.reward(k.address) : undefined,
  ]);
}
