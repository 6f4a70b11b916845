// Account actions that run on the server through better-auth's API (sessions are set as cookies by
// the nextCookies plugin). Errors come back as AppErrors with field messages; a failed sign-in never
// says whether the email exists.
import { isAPIError } from "better-auth/api";
import { z } from "zod";
import { Conflict, Invalid, TooMany } from "../errors";
import { rateLimiter } from "../security/rate-limit";
import { emailField, nameField, passwordField } from "../validation";
import { getAuth } from "./auth";

export const signUpSchema = z.object({ name: nameField, email: emailField, password: passwordField });
export const signInSchema = z.object({ email: emailField, password: z.string().min(1, "Enter your password.").max(128) });

export type SignUpInput = z.infer<typeof signUpSchema>;
export type SignInInput = z.infer<typeof signInSchema>;

function code(err: unknown): string | undefined {
  if (!isAPIError(err)) return undefined;
  return (err.body as { code?: string } | undefined)?.code;
}

export async function signUp(input: SignUpInput, headers: Headers): Promise<{ userId: string }> {
  const auth = await getAuth();
  try {
    const res = await auth.api.signUpEmail({ body: input, headers });
    return { userId: res.user.id };
  } catch (err) {
    const c = code(err);
    if (c?.startsWith("USER_ALREADY_EXISTS")) {
      throw Conflict("An account with this email already exists. Sign in instead.", {
        email: "An account with this email already exists.",
      });
    }
    if (c === "PASSWORD_TOO_SHORT" || c === "PASSWORD_TOO_LONG") throw Invalid("Invalid password.", { password: "Use 8 to 128 characters." });
    throw err;
  }
}

// Password guessing: at most 10 attempts per email per 5 minutes, and 50 per client address.
const attemptsPerEmail = rateLimiter({ name: "sign-in-email", limit: 10, windowMs: 5 * 60_000, message: "Too many sign-in attempts. Wait a few minutes and try again." });
const attemptsPerAddress = rateLimiter({ name: "sign-in-address", limit: 50, windowMs: 5 * 60_000, message: "Too many sign-in attempts. Wait a few minutes and try again." });

export async function signIn(input: SignInInput, headers: Headers): Promise<{ userId: string }> {
  await attemptsPerEmail.hit(input.email);
  await attemptsPerAddress.hit(headers.get("x-forwarded-for")?.split(",")[0].trim() || "local");
  const auth = await getAuth();
  try {
    const res = await auth.api.signInEmail({ body: input, headers });
    await attemptsPerEmail.reset(input.email);
    return { userId: res.user.id };
  } catch (err) {
    if (isAPIError(err) && err.statusCode === 429) throw TooMany("Too many attempts. Wait a minute and try again.", 60);
    if (isAPIError(err) && err.statusCode < 500) throw Invalid("Wrong email or password.", { form: "Wrong email or password." });
    throw err;
  }
}

export async function signOut(headers: Headers): Promise<void> {
  const auth = await getAuth();
  await auth.api.signOut({ headers });
}
