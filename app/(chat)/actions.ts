"use server";
// Actions of the signed-in frame: switch team, start a chat.
import { redirect } from "next/navigation";
import { createChat } from "@/lib/chat/chats";
import { requireTeam } from "@/lib/teams/context";
import { switchTeam } from "@/lib/teams/switch";

export async function switchTeamAction(teamId: string): Promise<void> {
  await switchTeam(String(teamId));
}

export async function newChatAction(): Promise<void> {
  const { id } = await createChat(await requireTeam());
  redirect(`/chat/${id}`);
}
