// Password guessing through every sign-in path (better-auth's HTTP endpoint and the form's server
// call) is slowed by account and by the connection's real address; a client's X-Forwarded-For does
// not give it new buckets, clients on other addresses do not share one, and the owner still gets in.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST } from "@/app/api/auth/[...all]/route";
import { AppError } from "@/lib/errors";
import { CONNECTION_HEADER } from "@/lib/security/client-address";
import { DRIVERS, startTestApp } from "@/test/support/test-app";
import { asRouteRequest } from "@/test/support/route-request";
import { signIn } from "@/lib/auth/accounts";
import { getAuth } from "@/lib/auth/auth";
import { ADDRESS_FAILURES, FREE_FAILURES, MAX_WAIT_S, UNDER_ATTACK_FAILURES, UNDER_ATTACK_WAIT_S, admitSignIn } from "@/lib/auth/sign-in-limits";

// better-auth is built once per process, on the first database: one database per file.
const driver = DRIVERS.filter((d) => !d.skip).at(-1)!;
const PASSWORD = "plover quarry lantern";
const ORIGIN = "http://localhost:3000";
const STAMPED = Symbol.for("parley.connectionAddress");

/** The most attempts checked in `seconds`: the free ones, then one after each wait of 1, 2, 4 … s that fits. */
function mostChecked(seconds: number): number {
  let n = FREE_FAILURES + 1;
  for (let wait = 1, waited = 1; waited <= seconds; wait *= 2, waited += wait) n++;
  return n;
}

let seq = 0;
async function account(): Promise<string> {
  const email = `owner-${Date.now()}-${seq++}@example.com`;
  await (await getAuth()).api.signUpEmail({ body: { name: "Owner", email, password: PASSWORD } });
  return email;
}

let xff = 0;
/** One POST /api/auth/sign-in/email from `address`, with a new X-Forwarded-For each time. */
async function overHttp(email: string, password: string, address: string) {
  xff++;
  const res = await POST(
    asRouteRequest(
      new Request(`${ORIGIN}/api/auth/sign-in/email`, {
        method: "POST",
        headers: {
          origin: ORIGIN,
          "content-type": "application/json",
          [CONNECTION_HEADER]: address,
          "x-forwarded-for": `198.51.${Math.floor(xff / 250) % 250}.${xff % 250}`,
        },
        body: JSON.stringify({ email, password }),
      }),
    ),
  );
  return { status: res.status, retryAfter: Number(res.headers.get("retry-after")) };
}

/** One sign-in through the form's server call from `address`: 200, 401 or 429 with its wait. */
async function overForm(email: string, password: string, address: string) {
  try {
    await signIn({ email, password }, new Headers({ [CONNECTION_HEADER]: address, "x-forwarded-for": `198.51.100.${xff++ % 250}` }));
    return { status: 200, retryAfter: 0 };
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return { status: err.status === 400 ? 401 : err.status, retryAfter: err.retryAfterSeconds ?? 0 };
  }
}

// Every checked password costs a scrypt hash: on a busy machine some of these take a while.
describe(`sign-in limits (${driver.name})`, { timeout: 120_000 }, () => {
  let stop: () => Promise<void>;
  beforeAll(async () => {
    (globalThis as Record<symbol, unknown>)[STAMPED] = true;
    ({ stop } = await startTestApp(driver));
  });
  afterAll(() => stop?.());

  it.each([
    ["better-auth's endpoint", overHttp, "203.0.113.10"],
    ["the sign-in form", overForm, "203.0.113.11"],
  ])("200 wrong passwords through %s with rotating X-Forwarded-For are refused after the limit", async (_, attempt, address) => {
    const email = await account();
    const results = [];
    const started = Date.now();
    for (let i = 0; i < 200; i++) results.push(await attempt(email, `wrong guess ${i}`, address));
    const seconds = (Date.now() - started) / 1000;
    const checked = results.filter((r) => r.status === 401).length;
    const refused = results.filter((r) => r.status === 429);
    expect(checked).toBeGreaterThanOrEqual(3);
    expect(checked).toBeLessThanOrEqual(mostChecked(seconds));
    expect(refused.length).toBe(200 - checked);
    for (const r of refused) expect(r.retryAfter).toBeGreaterThanOrEqual(1);
  });

  it("the owner signs in at once while attackers on many addresses hammer the account", async () => {
    const email = await account();
    // A distributed guesser: one try from each of many addresses, up to the account's alarm level…
    for (let i = 0; i < UNDER_ATTACK_FAILURES; i++) expect((await overForm(email, "guess", `192.0.2.${i + 1}`)).status).toBe(401);
    // …after which each address waits between its tries.
    expect((await overForm(email, "guess again", "192.0.2.1")).status).toBe(401);
    const again = await overForm(email, "and again", "192.0.2.1");
    expect(again.status).toBe(429);
    expect(again.retryAfter).toBeLessThanOrEqual(Math.max(UNDER_ATTACK_WAIT_S, MAX_WAIT_S));

    // The owner, from their own address: the right password works at once, over either path.
    expect((await overForm(email, PASSWORD, "203.0.113.50")).status).toBe(200);
    expect((await overHttp(email, PASSWORD, "203.0.113.51")).status).toBe(200);
    // A mistake under attack costs the owner a bounded wait, never a lock-out.
    expect((await overForm(email, "typo", "203.0.113.52")).status).toBe(401);
    const wait = await overForm(email, PASSWORD, "203.0.113.52");
    expect(wait.status).toBe(429);
    expect(wait.retryAfter).toBeLessThanOrEqual(UNDER_ATTACK_WAIT_S);
  });

  it("a guesser's failures from one address (far past 50, over many accounts) do not keep others there out", { timeout: 300_000 }, async () => {
    const [colleague, target] = [await account(), await account()];
    // Someone behind the office's one address guesses at other accounts: 60 wrong passwords, all checked…
    const guesses = [];
    for (let i = 0; i < 60; i++) guesses.push((await overForm(`nobody-${i % 12}@example.com`, `guess ${i}`, "203.0.113.60")).status);
    // …and a colleague behind the same address signs in at once, over either path.
    expect((await overForm(colleague, PASSWORD, "203.0.113.60")).status).toBe(200);
    expect((await overHttp(colleague, PASSWORD, "203.0.113.60")).status).toBe(200);
    expect(guesses.filter((s) => s !== 401)).toEqual([]);
    // A mistake there is still free (the address is far below its spraying mark).
    expect((await overForm(target, "one wrong", "203.0.113.60")).status).toBe(401);
    expect((await overForm(target, PASSWORD, "203.0.113.60")).status).toBe(200);
  });

  it(`past ${ADDRESS_FAILURES} failures an hour an address gets no free tries, yet a right password still goes through`, { timeout: 120_000 }, async () => {
    const [colleague, typist, elsewhere] = [await account(), await account(), await account()];
    // A sprayer: FREE_FAILURES guesses at each of many accounts, up to the mark. They are counted
    // through the limits' own entry (every attempt counts as a failure until it succeeds) rather than
    // sent, which would hash ADDRESS_FAILURES passwords (minutes on a busy machine); the test above
    // sends its guesses, and one more sent here must still be checked.
    const sprayed = Math.ceil(ADDRESS_FAILURES / FREE_FAILURES);
    for (let i = 0; i < sprayed * FREE_FAILURES; i++) await admitSignIn(`sprayed-${i % sprayed}@example.com`, "203.0.113.62");
    expect((await overForm(elsewhere, "one more", "203.0.113.62")).status).toBe(401);
    // Now every account's first mistake from this address costs a wait…
    expect((await overForm(typist, "typo", "203.0.113.62")).status).toBe(401);
    const wait = await overForm(typist, PASSWORD, "203.0.113.62");
    expect(wait.status).toBe(429);
    expect(wait.retryAfter).toBeGreaterThanOrEqual(1);
    expect(wait.retryAfter).toBeLessThanOrEqual(UNDER_ATTACK_WAIT_S);
    // …but a right password on an account with no failures from here goes through at once, over either path.
    expect((await overForm(colleague, PASSWORD, "203.0.113.62")).status).toBe(200);
    expect((await overHttp(colleague, PASSWORD, "203.0.113.62")).status).toBe(200);
    // Other addresses are not touched by it: there, mistakes are free again.
    for (let i = 0; i < FREE_FAILURES - 1; i++) expect((await overForm(elsewhere, `free ${i}`, "203.0.113.63")).status).toBe(401);
    expect((await overForm(elsewhere, PASSWORD, "203.0.113.63")).status).toBe(200);
  });

  it("a success forgets the address's failures on the account", async () => {
    const email = await account();
    for (let i = 0; i < FREE_FAILURES - 1; i++) expect((await overForm(email, `x${i}`, "203.0.113.70")).status).toBe(401);
    expect((await overForm(email, PASSWORD, "203.0.113.70")).status).toBe(200);
    for (let i = 0; i < FREE_FAILURES - 1; i++) expect((await overForm(email, `y${i}`, "203.0.113.70")).status).toBe(401);
  });

  it("without a known address, limits hold per account only, never one bucket for everyone", async () => {
    (globalThis as Record<symbol, unknown>)[STAMPED] = false;
    try {
      const [victim, other] = [await account(), await account()];
      for (let i = 0; i < 30; i++) await overForm(victim, `z${i}`, "203.0.113.80");
      expect((await overForm(victim, "z-last", "203.0.113.80")).status).toBe(429);
      expect((await overForm(other, PASSWORD, "203.0.113.80")).status).toBe(200);
    } finally {
      (globalThis as Record<symbol, unknown>)[STAMPED] = true;
    }
  });
});
