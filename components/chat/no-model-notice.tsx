// Said where a chat would start when the team has no model yet: an admin gets the link to the
// providers page, a member is told to ask an admin.
import Link from "next/link";

export function NoModelNotice({ isAdmin }: { isAdmin: boolean }) {
  return (
    <p role="status" className="rounded-md bg-warning px-3 py-2 text-sm text-warning-foreground">
      No model is available for this team yet.{" "}
      {isAdmin ? (
        <>
          <Link href="/admin/providers" className="font-medium underline underline-offset-2">
            Connect a provider
          </Link>{" "}
          to start chatting.
        </>
      ) : (
        "Ask an admin of your team to connect a provider."
      )}
    </p>
  );
}
