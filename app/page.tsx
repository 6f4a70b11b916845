import { redirect } from "next/navigation";
import { currentUser } from "@/app/_server/caller";
import { needsSetup } from "@/lib/teams/setup";

export const dynamic = "force-dynamic";

export default async function Home() {
  if (await needsSetup()) redirect("/setup");
  redirect((await currentUser()) ? "/chat" : "/sign-in");
}
