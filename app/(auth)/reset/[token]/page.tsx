import { LinkNotUsable } from "@/components/auth/link-not-usable";
import { ResetPasswordForm } from "@/components/auth/reset-password-form";
import { inspectPasswordReset } from "@/lib/teams/password-resets";
import { resetPasswordAction } from "../../actions";

export const metadata = { title: "Reset password" };
export const dynamic = "force-dynamic";

export default async function ResetPasswordPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const status = await inspectPasswordReset(token);
  if (!status.ok) return <LinkNotUsable title="Reset link not usable" message={status.message} />;
  return (
    <>
      <h1 className="mb-1 text-lg font-semibold">Choose a new password</h1>
      <p className="mb-5 text-sm text-subtle">For {status.email}. Setting it signs this account out everywhere; then sign in with the new password.</p>
      <ResetPasswordForm action={resetPasswordAction} token={token} email={status.email} />
    </>
  );
}
