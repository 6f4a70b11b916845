// The shell for every signed-in page (chat and admin): loads the team context and the first page of
// the chat list, its days grouped in the time zone the browser reported (a cookie; UTC before that), and
// opens the page's live channel (components/shared/live.tsx).
import { cookies } from "next/headers";
import { AppShell } from "@/components/shell/app-shell";
import { LiveProvider } from "@/components/shared/live";
import { listChatPage, knownTimeZone } from "@/lib/chat/chat-list";
import type { TeamContext } from "@/lib/teams/team-context";
import { signOutAction } from "../(auth)/actions";
import { switchTeamAction } from "./actions";

export async function SignedInShell({ ctx, children }: { ctx: TeamContext; children: React.ReactNode }) {
  const tz = knownTimeZone((await cookies()).get("parley_tz")?.value);
  const chats = await listChatPage(ctx, { tz });
  return (
    <LiveProvider>
      <AppShell ctx={ctx} chats={chats} actions={{ switchTeam: switchTeamAction, signOut: signOutAction }}>
        {children}
      </AppShell>
    </LiveProvider>
  );
}
