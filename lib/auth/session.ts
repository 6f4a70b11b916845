// Who is calling: the signed-in user from the session cookie, checked on the server for every
// request — once per request: a layout and its page both ask, and React's `cache` answers the second.
import { headers } from "next/headers";
import { cache } from "react";
import { Unauthorized } from "../errors";
import { getAuth } from "./auth";

export type SessionUser = { id: string; name: string; email: string };

export const currentUser = cache(async (): Promise<SessionUser | null> => {
  const auth = await getAuth();
  const session = await auth.api.getSession({ headers: await headers() });
  if (!session) return null;
  const { id, name, email } = session.user;
  return { id, name, email };
});

export async function requireUser(): Promise<SessionUser> {
  const user = await currentUser();
  if (!user) throw Unauthorized();
  return user;
}
