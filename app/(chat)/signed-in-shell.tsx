// The shell for every signed-in page (chat and admin): loads the team context and the chat list.
import { AppShell } from "@/components/shell/app-shell";
import { listChats } from "@/lib/chat/chats";
import type { TeamContext } from "@/lib/teams/context";
import { signOutAction } from "../(auth)/actions";
import { newChatAction, switchTeamAction } from "./actions";

export async function SignedInShell({ ctx, children }: { ctx: TeamContext; children: React.ReactNode }) {
  const chats = await listChats(ctx);
  return (
    <AppShell ctx={ctx} chats={chats} actions={{ switchTeam: switchTeamAction, newChat: newChatAction, signOut: signOutAction }}>
      {children}
    </AppShell>
  );
}
