import { forbidden } from "next/navigation";
import { teamPage } from "@/app/_server/page-guards";
import { CreateTeamForm } from "@/components/admin/create-team-form";
import { createTeamAction } from "../../../admin/actions";

export const metadata = { title: "New team" };

export default async function NewTeamPage() {
  const ctx = await teamPage("/teams/new");
  if (!ctx.teams.some((t) => t.role === "admin")) forbidden();
  return (
    <div className="mx-auto max-w-md px-4 pb-10 pt-14 md:pt-6">
      <h1 className="mb-1 text-lg font-semibold">Create a team</h1>
      <p className="mb-5 text-sm text-subtle">A team has its own members, models, tools and chats. You will be its admin.</p>
      <CreateTeamForm action={createTeamAction} />
    </div>
  );
}
