import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { SetupForm } from "@/components/auth/setup-form";
import { fromThisMachine } from "@/lib/security/client-address";
import { needsSetup } from "@/lib/teams/setup";
import { setupAction } from "../actions";

export const metadata = { title: "Set up" };
export const dynamic = "force-dynamic";

export default async function SetupPage() {
  if (!(await needsSetup())) redirect("/sign-in");
  return (
    <>
      <h1 className="mb-1 text-lg font-semibold">Welcome to Parley</h1>
      <p className="mb-5 text-sm text-subtle">Create the first admin account and name your team.</p>
      <SetupForm action={setupAction} askCode={!fromThisMachine(await headers())} />
    </>
  );
}
