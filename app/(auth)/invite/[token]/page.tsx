import Link from "next/link";
import { LinkNotUsable } from "@/components/auth/link-not-usable";
import { JoinAsCurrentUserForm, JoinWithNewAccountForm } from "@/components/auth/join-forms";
import { currentUser } from "@/app/_server/caller";
import { inspectInvite } from "@/lib/teams/invites";
import { joinAsCurrentUserAction, joinWithNewAccountAction } from "../../actions";

export const metadata = { title: "Join a team" };
export const dynamic = "force-dynamic";

export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const status = await inspectInvite(token);
  if (!status.ok) return <LinkNotUsable title="Invite link not usable" message={status.message} />;
  const user = await currentUser();
  return (
    <>
      <h1 className="mb-1 text-lg font-semibold">Join {status.teamName}</h1>
      <p className="mb-5 text-sm text-subtle">
        You are invited as {status.role === "admin" ? "an admin" : "a member"}. The link expires {status.expiresAt.toUTCString().replace(/:\d\d GMT$/, " UTC")}.
      </p>
      {user ? (
        <>
          <p className="mb-3 text-sm">Signed in as {user.email}.</p>
          <JoinAsCurrentUserForm action={joinAsCurrentUserAction} token={token} teamName={status.teamName} />
        </>
      ) : (
        <>
          <JoinWithNewAccountForm action={joinWithNewAccountAction} token={token} teamName={status.teamName} />
          <p className="mt-4 text-xs text-subtle">
            Already have an account?{" "}
            <Link className="text-accent-text underline" href={`/sign-in?next=${encodeURIComponent(`/invite/${token}`)}`}>
              Sign in first
            </Link>
            , then open this link again.
          </p>
        </>
      )}
    </>
  );
}
