import { redirect } from "next/navigation";
import { SignInForm } from "@/components/auth/sign-in-form";
import { FormMessage } from "@/components/ui/field";
import { currentUser } from "@/lib/auth/session";
import { needsSetup } from "@/lib/teams/setup";
import { signInAction } from "../actions";

export const metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ next?: string; reset?: string }> }) {
  if (await needsSetup()) redirect("/setup");
  if (await currentUser()) redirect("/chat");
  const { next, reset } = await searchParams;
  return (
    <>
      <h1 className="mb-5 text-lg font-semibold">Sign in</h1>
      {reset === "1" && <FormMessage ok className="mb-4" message="Your password was changed. Sign in with the new one." />}
      <SignInForm action={signInAction} next={next} />
      <p className="mt-4 text-xs text-zinc-600 dark:text-zinc-400">
        Forgot your password? Parley sends no email: ask an admin of your team for a password reset link.
      </p>
      <p className="mt-2 text-xs text-zinc-600 dark:text-zinc-400">New here? Ask an admin of your team for an invite link.</p>
    </>
  );
}
