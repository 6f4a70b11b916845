// Who is calling: the signed-in user of a request's session cookie, checked on the server for every
// request — once per request: a layout and its page both ask, and the answer is kept for the
// request's headers object (Next gives every call of `headers()` in one request the same one;
// app/_server/caller.ts reads it), so the second asks nobody. No React and no Next here.
import { Unauthorized } from "../errors";
import { getAuth } from "./auth";

export type SessionUser = { id: string; name: string; email: string };

const perRequest = new WeakMap<Headers, Promise<SessionUser | null>>();

/** The user of a request's session cookie, or null; asked of better-auth once per request. */
export function sessionUser(requestHeaders: Headers): Promise<SessionUser | null> {
  let user = perRequest.get(requestHeaders);
  if (!user) {
    user = lookUp(requestHeaders);
    perRequest.set(requestHeaders, user);
    user.catch(() => perRequest.delete(requestHeaders));
  }
  return user;
}

async function lookUp(requestHeaders: Headers): Promise<SessionUser | null> {
  const auth = await getAuth();
  const session = await auth.api.getSession({ headers: requestHeaders });
  if (!session) return null;
  const { id, name, email } = session.user;
  return { id, name, email };
}

/** The user of a request's session cookie; 401 when nobody is signed in. */
export async function signedInUser(requestHeaders: Headers): Promise<SessionUser> {
  const user = await sessionUser(requestHeaders);
  if (!user) throw Unauthorized();
  return user;
}
