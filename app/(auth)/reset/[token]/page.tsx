import Link from "next/link";
import { ResetPasswordForm } from "@/components/auth/reset-password-form";
import { inspectPasswordReset } from "@/lib/teams/password-resets";
import { resetPasswordAction } from "../../actions";

export const metadata = { title: "Reset password" };
export const dynamic = "force-dynamic";

export default async function ResetPasswordPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const status = await inspectPasswordReset(token);
  if (!status.ok) {
    return (
      <>
        <h1 className="mb-3 text-lg font-semibold">Reset link not usable</h1>
        <p role="alert" className="text-sm text-zinc-700 dark:text-zinc-300">
          {status.message}
        </p>
        <Link href="/sign-in" className="mt-4 inline-block text-sm text-accent-text underline">
          Go to sign in
        </Link>
      </>
    );
  }
  return (
    <>
      <h1 className="mb-1 text-lg font-semibold">Choose a new password</h1>
      <p className="mb-5 text-sm text-zinc-600 dark:text-zinc-400">
        For {status.email}. Setting it signs this account out everywhere; then sign in with the new password.
      </p>
      <ResetPasswordForm action={resetPasswordAction} token={token} email={status.email} />
    </>
  );
}
