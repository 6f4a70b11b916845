import { MessagesSquare } from "lucide-react";
import { teamPage } from "@/lib/teams/page-guards";

export const metadata = { title: "Chats" };

export default async function ChatHome() {
  const ctx = await teamPage("/chat");
  return (
    <div className="flex h-full flex-col items-center justify-center gap-3 p-8 text-center">
      <MessagesSquare className="size-10 text-zinc-400" aria-hidden />
      <h1 className="text-xl font-semibold">{ctx.team.name}</h1>
      <p className="max-w-sm text-sm text-zinc-600 dark:text-zinc-400">Start a new chat from the sidebar, or pick one you had before.</p>
    </div>
  );
}
