import { redirect } from "next/navigation";
import { SignInForm } from "@/components/auth/sign-in-form";
import { SsoSignInButton } from "@/components/auth/sso-sign-in-button";
import Link from "next/link";
import { FormMessage } from "@/components/ui/field";
import { emailEnabled } from "@/lib/email/mailer";
import { currentUser } from "@/app/_server/caller";
import { needsSetup } from "@/lib/teams/setup";
import { signInMethods } from "@/lib/identity/sign-in-methods";
import { ssoErrorMessage } from "@/lib/identity/sign-in-errors";
import { signInAction, ssoSignInAction } from "../actions";

export const metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ next?: string; reset?: string; error?: string }> }) {
  if (await needsSetup()) redirect("/setup");
  if (await currentUser()) redirect("/chat");
  const { next, reset, error } = await searchParams;
  const methods = await signInMethods();
  const ssoError = ssoErrorMessage(typeof error === "string" ? error : undefined);
  // Told to prove an existing account first: after the password, the profile offers "Link single sign-on".
  const afterPassword = next ?? (error === "link_required" || error === "account_not_linked" ? "/profile" : undefined);
  return (
    <>
      <h1 className="mb-5 text-lg font-semibold">Sign in</h1>
      {ssoError && <FormMessage className="mb-4" message={`Single sign-on failed: ${ssoError}`} />}
      {reset === "1" && <FormMessage ok className="mb-4" message="Your password was changed. Sign in with the new one." />}
      {methods.sso && <SsoSignInButton action={ssoSignInAction} name={methods.sso.name} next={next} />}
      {methods.sso && methods.password && (
        <p className="my-4 text-center text-xs text-subtle" aria-hidden>
          or with email and password
        </p>
      )}
      {methods.password && <SignInForm action={signInAction} next={afterPassword} />}
      {methods.password &&
        (emailEnabled() ? (
          <p className="mt-4 text-xs">
            <Link href="/forgot" className="text-accent-text underline">
              Forgot password?
            </Link>
          </p>
        ) : (
          <p className="mt-4 text-xs text-subtle">Forgot your password? Email is off on this server: ask an admin of your team for a password reset link.</p>
        ))}
      <p className="mt-2 text-xs text-subtle">New here? Ask an admin of your team for an invite link.</p>
    </>
  );
}
