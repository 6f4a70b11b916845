// "Forgot password?": a reset link by email when email is on; otherwise the page says email is off and
// that an admin makes reset links.
import Link from "next/link";
import { redirect } from "next/navigation";
import { ForgotPasswordForm } from "@/components/auth/forgot-password-form";
import { currentUser } from "@/app/_server/caller";
import { emailEnabled } from "@/lib/email/mailer";
import { signInMethods } from "@/lib/identity/sign-in-methods";
import { forgotPasswordAction } from "../actions";

export const metadata = { title: "Forgot password" };
export const dynamic = "force-dynamic";

export default async function ForgotPasswordPage() {
  if (await currentUser()) redirect("/profile");
  const methods = await signInMethods();
  return (
    <>
      <h1 className="mb-1 text-lg font-semibold">Forgot your password?</h1>
      {!methods.password ? (
        <p className="mb-4 text-sm text-soft">Password sign-in is off on this server: sign in with single sign-on.</p>
      ) : emailEnabled() ? (
        <>
          <p className="mb-5 text-sm text-subtle">Enter the address you sign in with. We send it a link to choose a new password.</p>
          <ForgotPasswordForm action={forgotPasswordAction} />
        </>
      ) : (
        <p className="mb-4 text-sm text-soft">
          Email is off on this server, so Parley cannot send you a link. Ask an admin of your team for a password reset link.
        </p>
      )}
      <Link href="/sign-in" className="mt-4 inline-block text-sm text-accent-text underline">
        Back to sign in
      </Link>
    </>
  );
}
