// Server actions, defined once: `defineAction` for a form's action `(state, form) => state`,
// `defineArgsAction` for one called with plain arguments. Every action's entry runs in one order: the
// arguments' shape first (a malformed form is a 400 state; arguments of no known shape are 404), then
// who may call (the role), then the body; once the body returns, the paths it made stale are
// revalidated and its redirect is followed. The plain checks and the state are lib/actions.ts'.
import { revalidatePath } from "next/cache";
import { headers } from "next/headers";
import { forbidden, notFound, redirect, unauthorized, unstable_rethrow } from "next/navigation";
import type { z } from "zod";
import { checkForm, echoedValues, errorState, refusalOf, type ActionState } from "@/lib/actions";
import type { SessionUser } from "@/lib/auth/session";
import type { TeamContext } from "@/lib/teams/team-context";
import { requireAdmin, requireInstanceAdmin, requireTeam, requireUser } from "./caller";

/** Who may call: anybody, any signed-in user, a member of their current team, its admin, an instance admin. */
type Role = "public" | "user" | "member" | "admin" | "instance-admin";

type Caller = { public: Record<never, never>; user: { user: SessionUser }; member: TeamContext; admin: TeamContext; "instance-admin": TeamContext };

/** What a body is given: the caller its role let in, and the request's headers. */
type ActionContext<R extends Role> = Caller[R] & { headers: Headers };

const callers: { [R in Role]: () => Promise<Caller[R]> } = {
  public: async () => ({}),
  user: async () => ({ user: await requireUser() }),
  member: () => requireTeam(),
  admin: () => requireAdmin(),
  "instance-admin": () => requireInstanceAdmin(),
};

async function contextOf<R extends Role>(role: R): Promise<ActionContext<R>> {
  return { ...(await callers[role]()), headers: await headers() };
}

/** A page to revalidate, or `{ layout }`: a layout and every page under it. */
type StalePath = string | { layout: string };

/** The paths an action makes stale: fixed, or read from its input. */
type Stale<Input> = readonly StalePath[] | ((input: Input) => readonly StalePath[]);

function revalidate<Input>(stale: Stale<Input> | undefined, input: Input): void {
  for (const path of typeof stale === "function" ? stale(input) : (stale ?? [])) {
    if (typeof path === "string") revalidatePath(path);
    else revalidatePath(path.layout, "layout");
  }
}

/** What a form action's body answers: its form's state, nothing (`{ ok: true }`), or the page to go to. */
type FormOutcome = ActionState | { redirectTo: string } | void;

export type FormActionOptions<R extends Role> = {
  role: R;
  /** Shapes of named fields, checked at the entry with the rest of the form (e.g. `idFields("serverId")`). */
  fields?: z.ZodRawShape;
  /** Fields never echoed into a rejected form (keys, tokens); password fields never are. */
  secret?: readonly string[];
  revalidate?: Stale<FormData>;
};

/**
 * A form's server action. A malformed form is refused (400) before the role is checked; refusals and
 * invalid input become the form's state, echoing its non-secret fields.
 */
export function defineAction<R extends Role>(
  options: FormActionOptions<R>,
  body: (ctx: ActionContext<R>, form: FormData) => Promise<FormOutcome>,
): (prev: ActionState, form: FormData) => Promise<ActionState> {
  return async (_prev, form) => {
    const refused = checkForm(form, options.fields);
    if (refused) return refused;
    let outcome: FormOutcome;
    try {
      outcome = await body(await contextOf(options.role), form);
      revalidate(options.revalidate, form);
    } catch (err) {
      unstable_rethrow(err);
      return errorState(err, echoedValues(form, options.secret));
    }
    if (outcome && "redirectTo" in outcome) redirect(outcome.redirectTo);
    return outcome ?? { ok: true };
  };
}

type ArgsActionOptions<S extends z.ZodType, R extends Role> = { args: S; role: R; revalidate?: Stale<z.infer<S>> };

/**
 * A server action called with one plain argument, which returns no form state: an argument not of
 * `args`' shape is 404 (nothing of that shape exists) before the role is checked; refusals are
 * Next's interrupts (`interrupts`).
 */
export function defineArgsAction<S extends z.ZodType, R extends Role, T>(
  options: ArgsActionOptions<S, R>,
  body: (ctx: ActionContext<R>, args: z.infer<S>) => Promise<T>,
): (args: z.input<S>) => Promise<T> {
  return async (input) => {
    const parsed = options.args.safeParse(input);
    if (!parsed.success) notFound();
    const args = parsed.data;
    return interrupts(async () => {
      const result = await body(await contextOf(options.role), args);
      revalidate(options.revalidate, args);
      return result;
    });
  };
}

/**
 * Runs the body of an action that returns no form state. Refusals become Next's interrupts (401,
 * 403, 404: real statuses, where a thrown error would be a 500); redirects pass through.
 */
async function interrupts<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    unstable_rethrow(err);
    const known = refusalOf(err);
    if (!known) throw err;
    if (known.status === 401) unauthorized();
    if (known.status === 403) forbidden();
    if (known.status < 500) notFound();
    throw err;
  }
}

/** A form field's text; "" when absent. */
export const formText = (form: FormData, name: string): string => String(form.get(name) ?? "");
