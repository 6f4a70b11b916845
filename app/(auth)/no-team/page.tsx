import { redirect } from "next/navigation";
import { currentUser } from "@/app/_server/caller";
import { teamsOf } from "@/lib/teams/context";
import { signOutAction } from "../actions";
import { Button } from "@/components/ui/button";

export const metadata = { title: "No team" };
export const dynamic = "force-dynamic";

export default async function NoTeamPage() {
  const user = await currentUser();
  if (!user) redirect("/sign-in");
  if ((await teamsOf(user.id)).length) redirect("/chat");
  return (
    <>
      <h1 className="mb-2 text-lg font-semibold">You are not in a team</h1>
      <p className="mb-4 text-sm text-subtle">Signed in as {user.email}. Ask an admin for an invite link and open it to join their team.</p>
      <form action={signOutAction}>
        <Button type="submit" variant="secondary">
          Sign out
        </Button>
      </form>
    </>
  );
}
