// better-auth hooks that hold on every path into it, HTTP endpoint or server call alike:
// - a body or query holding a NUL byte (PostgreSQL stores none) or nested deeper than 32: 400;
// - sign-in limits (lib/auth/sign-in-limits.ts) on /sign-in/email, by account and real client address;
// - password strength (lib/security/password-strength.ts) wherever a password is set;
// - a name, when one is changed, follows the rule of the forms (lib/validation.ts).
import type { BetterAuthPlugin } from "better-auth";
import { APIError, createAuthMiddleware, getSessionFromCtx, isAPIError } from "better-auth/api";
import { isAppError } from "../errors";
import { clientAddress } from "../security/client-address";
import { passwordWeakness } from "../security/password-strength";
import { hasNulOrTooDeep, nameField } from "../validation";
import { admitSignIn, signInSucceeded } from "./sign-in-limits";

const SIGN_IN = "/sign-in/email";
/** Endpoints that set a password, and the body field that holds it. */
const SETS_PASSWORD: Record<string, string> = {
  "/sign-up/email": "password",
  "/change-password": "newPassword",
  "/reset-password": "newPassword",
  "/set-password": "newPassword",
};

const text = (v: unknown) => (typeof v === "string" ? v : "");

type HookContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];
const headersOf = (ctx: HookContext) => ctx.headers ?? ctx.request?.headers ?? new Headers();

const limitSignIn = createAuthMiddleware(async (ctx) => {
  const email = text(ctx.body?.email);
  if (!email) return; // better-auth refuses the body itself
  try {
    await admitSignIn(email, clientAddress(headersOf(ctx)));
  } catch (err) {
    if (!isAppError(err) || err.status !== 429) throw err;
    throw new APIError("TOO_MANY_REQUESTS", { message: err.message, code: "TOO_MANY_ATTEMPTS" }, { "Retry-After": String(err.retryAfterSeconds ?? 60) });
  }
});

const signedIn = createAuthMiddleware(async (ctx) => {
  if (isAPIError(ctx.context.returned)) return;
  await signInSucceeded(text(ctx.body?.email), clientAddress(headersOf(ctx)));
});

const strongPassword = createAuthMiddleware(async (ctx) => {
  const password = text(ctx.body?.[SETS_PASSWORD[ctx.path ?? ""] ?? ""]);
  if (!password) return;
  const inputs = [text(ctx.body?.email), text(ctx.body?.name)];
  if (ctx.path !== "/sign-up/email") {
    const session = await getSessionFromCtx(ctx).catch(() => null);
    if (session) inputs.push(session.user.email, session.user.name);
  }
  const weakness = passwordWeakness(password, inputs.filter(Boolean));
  if (weakness) throw new APIError("BAD_REQUEST", { message: weakness, code: "PASSWORD_TOO_WEAK" });
});

const wellFormed = createAuthMiddleware(async (ctx) => {
  if (hasNulOrTooDeep(ctx.body) || hasNulOrTooDeep(ctx.query)) {
    throw new APIError("BAD_REQUEST", { message: "The request contains a NUL byte or is nested too deeply.", code: "INVALID_INPUT" });
  }
});

const validName = createAuthMiddleware(async (ctx) => {
  if (ctx.body?.name === undefined) return;
  const parsed = nameField.safeParse(ctx.body.name);
  if (!parsed.success) throw new APIError("BAD_REQUEST", { message: parsed.error.issues[0]?.message ?? "Invalid name.", code: "INVALID_NAME" });
});

export const parleyGuards = () =>
  ({
    id: "parley-guards",
    hooks: {
      before: [
        { matcher: () => true, handler: wellFormed },
        { matcher: (ctx) => ctx.path === SIGN_IN, handler: limitSignIn },
        { matcher: (ctx) => !!ctx.path && Object.hasOwn(SETS_PASSWORD, ctx.path), handler: strongPassword },
        { matcher: (ctx) => ctx.path === "/update-user", handler: validName },
      ],
      after: [{ matcher: (ctx) => ctx.path === SIGN_IN, handler: signedIn }],
    },
  }) satisfies BetterAuthPlugin;
