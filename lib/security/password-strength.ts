// Password strength, offline: zxcvbn-ts with its common-password, name and word lists estimates how
// many guesses a password takes; below MIN_SCORE (3: about 10^8 guesses) it is refused, with the
// reason in words. The person's own name and email count as guessable words too.
import { ZxcvbnFactory } from "@zxcvbn-ts/core";
import { adjacencyGraphs, dictionary } from "@zxcvbn-ts/language-common";

const MIN_SCORE = 3;

let estimator: ZxcvbnFactory | undefined;
const zxcvbn = () => (estimator ??= new ZxcvbnFactory({ dictionary, graphs: adjacencyGraphs }));

/** Why a password is easy to guess, by zxcvbn's warning keys. */
const REASONS: Record<string, string> = {
  topTen: "it is one of the most common passwords",
  topHundred: "it is one of the most common passwords",
  common: "it is a commonly used password",
  similarToCommon: "it is too close to a commonly used password",
  pwned: "it is a commonly used password",
  straightRow: "it is a row of keys on a keyboard",
  keyPattern: "it is a short keyboard pattern",
  simpleRepeat: "it repeats the same character",
  extendedRepeat: "it repeats the same few characters",
  sequences: "it is a simple sequence like abc or 1234",
  recentYears: "it is mostly a recent year",
  dates: "it is mostly a date",
  wordByItself: "it is a single word",
  namesByThemselves: "it is a name",
  commonNames: "it is a common name",
  userInputs: "it contains your name or email address",
};

/**
 * Undefined when the password is strong enough; otherwise the message to show, naming why.
 * `userInputs`: the person's name, email (and its parts), which count as easy guesses.
 */
export function passwordWeakness(password: string, userInputs: string[] = []): string | undefined {
  // zxcvbn looks at the first 256 characters; longer passwords are refused elsewhere.
  const inputs = userInputs
    .flatMap((v) => [v, v.toLowerCase().replace(/[^a-z0-9]+/g, ""), ...v.toLowerCase().split(/[^a-z0-9]+/)])
    .filter((v) => v.length >= 3);
  const result = zxcvbn().check(password.slice(0, 256), inputs);
  if (result.score >= MIN_SCORE) return undefined;
  const reason = REASONS[result.feedback.warning ?? ""] ?? "it is too easy to guess";
  return `Choose a harder password: ${reason}. A few unrelated words together work well.`;
}
