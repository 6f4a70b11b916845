import { MessagesSquare } from "lucide-react";
import { FirstRunChecklist } from "@/components/chat/first-run-checklist";
import { NoModelNotice } from "@/components/chat/no-model-notice";
import { firstRunSteps } from "@/lib/teams/first-run";
import { teamPage } from "@/lib/teams/page-guards";

export const metadata = { title: "Chats" };

export default async function ChatHome() {
  const ctx = await teamPage("/chat");
  const steps = await firstRunSteps(ctx.team.id);
  const isAdmin = ctx.team.role === "admin";
  const checklist = isAdmin && !(steps.provider && steps.mcpServer && steps.invited);
  return (
    <div className="flex h-full flex-col items-center justify-center gap-3 p-8 text-center">
      <MessagesSquare className="size-10 text-zinc-400" aria-hidden />
      <h1 className="text-xl font-semibold">{ctx.team.name}</h1>
      {!steps.provider && !checklist && <NoModelNotice isAdmin={isAdmin} />}
      {checklist && <FirstRunChecklist steps={steps} />}
      <p className="max-w-sm text-sm text-zinc-600 dark:text-zinc-400">
        {steps.provider ? "Start a new chat from the sidebar, or pick one you had before." : "Once a model is connected, start a new chat from the sidebar."}
      </p>
    </div>
  );
}
