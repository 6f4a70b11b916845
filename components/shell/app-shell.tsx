// The signed-in frame: sidebar (team switcher, New chat, the chat list, projects, admin link, account) and the
// main area. New chat opens an empty composer (/chat); nothing is stored until its first message.
import Link from "next/link";
import { LogOut, MessageSquarePlus, MessagesSquare, Settings, SlidersHorizontal, TextSearch, UserRound } from "lucide-react";
import type { ChatPage } from "@/lib/chat/chat-list";
import type { TeamContext } from "@/lib/teams/team-context";
import { SidebarFrame } from "./mobile-sidebar";
import { TeamSwitcher } from "./team-switcher";
import { ThemeToggle } from "./theme-toggle";
import { ChatList } from "./chat-list";
import { ChatListProvider } from "./chat-list-state";
import { NewChatLink } from "./new-chat-link";
import { SharedWithMe } from "./shared-with-me";
import { ProjectsNav } from "./projects-nav";
import { MAIN_ID, ShortcutsHelp, SkipLinks } from "./keyboard";
import { Button } from "../ui/button";
import { Tooltip } from "../ui/tooltip";
import { ApprovalsLink } from "./approvals-link";

export type ShellActions = {
  switchTeam: (teamId: string) => Promise<void>;
  signOut: (form: FormData) => Promise<void>;
};

export function AppShell({ ctx, chats, actions, children }: { ctx: TeamContext; chats: ChatPage; actions: ShellActions; children: React.ReactNode }) {
  const isAdmin = ctx.team.role === "admin";
  return (
    <div className="flex h-dvh overflow-hidden">
      <SkipLinks />
      <ShortcutsHelp />
      <ChatListProvider initial={chats}>
        <SidebarFrame>
          <div className="flex items-center gap-2 px-4 pb-2 pt-4 text-base font-semibold">
            <MessagesSquare className="size-5 text-accent-text" aria-hidden /> Parley
          </div>
          <div className="px-4 py-2">
            <TeamSwitcher teams={ctx.teams} currentId={ctx.team.id} onSwitch={actions.switchTeam} />
            {ctx.teams.some((t) => t.role === "admin") && (
              <Link href="/teams/new" className="mt-1 inline-block text-xs text-subtle underline hover:text-strong">
                Create a team
              </Link>
            )}
          </div>
          <div className="px-4 py-2">
            <Button asChild className="h-9 w-full">
              <NewChatLink>
                <MessageSquarePlus className="size-4" aria-hidden /> New chat
              </NewChatLink>
            </Button>
          </div>
          <ChatList />
          <ProjectsNav />
          <SharedWithMe />
          <div className="border-t border-line px-2 py-2">
            <Link href="/search" className="flex items-center gap-2 rounded-md px-2 py-2 text-sm hover:bg-panel-hover">
              <TextSearch className="size-4" aria-hidden /> Search messages
            </Link>
            <Link href="/profile" className="flex items-center gap-2 rounded-md px-2 py-2 text-sm hover:bg-panel-hover">
              <UserRound className="size-4" aria-hidden /> Profile
            </Link>
            <Link href="/settings" className="flex items-center gap-2 rounded-md px-2 py-2 text-sm hover:bg-panel-hover">
              <SlidersHorizontal className="size-4" aria-hidden /> Settings
            </Link>
            {isAdmin && <ApprovalsLink />}
            {isAdmin && (
              <Link href="/admin" className="flex items-center gap-2 rounded-md px-2 py-2 text-sm hover:bg-panel-hover">
                <Settings className="size-4" aria-hidden /> Admin
              </Link>
            )}
            <div className="flex items-center gap-1 px-2 pt-1">
              <div className="min-w-0 flex-1">
                <p className="truncate text-sm font-medium">{ctx.user.name}</p>
                <p className="truncate text-xs text-subtle">{ctx.user.email}</p>
              </div>
              <ThemeToggle />
              <form action={actions.signOut}>
                <Tooltip content="Sign out">
                  <Button type="submit" variant="ghost" size="icon" className="text-icon hover:bg-panel-hover" aria-label="Sign out">
                    <LogOut className="size-4" aria-hidden />
                  </Button>
                </Tooltip>
              </form>
            </div>
          </div>
        </SidebarFrame>
      </ChatListProvider>
      <main id={MAIN_ID} tabIndex={-1} className="min-w-0 flex-1 overflow-y-auto outline-none">
        {children}
      </main>
    </div>
  );
}
