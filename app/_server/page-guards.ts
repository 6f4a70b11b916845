// Guards for pages: the same server-side checks as routes (caller.ts), answered the way a page should:
// signed out -> the sign-in page, not an admin -> 403 page, no such thing -> 404 page.
import { forbidden, notFound, redirect } from "next/navigation";
import { AppError } from "@/lib/errors";
import type { TeamContext } from "@/lib/teams/team-context";
import { requireAdmin, requireTeam } from "./caller";

async function guard(fn: () => Promise<TeamContext>, path: string): Promise<TeamContext> {
  try {
    return await fn();
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    if (err.status === 401) redirect(`/sign-in?next=${encodeURIComponent(path)}`);
    if (err.status === 403) forbidden();
    if (err.code === "NoTeam") redirect("/no-team");
    notFound();
  }
}

export const teamPage = (path: string) => guard(() => requireTeam(), path);
export const adminPage = (path: string) => guard(() => requireAdmin(), path);

/** The promise's value; an AppError 404 (no such thing, or another team's) becomes the 404 page. */
export async function orNotFound<T>(promise: Promise<T>): Promise<T> {
  try {
    return await promise;
  } catch (err) {
    if (err instanceof AppError && err.status === 404) notFound();
    throw err;
  }
}
