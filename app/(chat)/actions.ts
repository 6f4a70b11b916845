"use server";
// Actions of the signed-in frame: switch team, start a chat.
import { notFound, redirect } from "next/navigation";
import { checkArgs, interrupts } from "@/lib/actions";
import { createChat } from "@/lib/chat/chats";
import { requireTeam } from "@/lib/teams/context";
import { switchTeam } from "@/lib/teams/switch";
import { idField } from "@/lib/validation";

export async function switchTeamAction(teamId: string): Promise<void> {
  const id = checkArgs(idField, teamId);
  await interrupts(() => switchTeam(id));
}

/** The sidebar's New chat form; a call that is not its form's (no FormData) is refused with 404. */
export async function newChatAction(form: unknown): Promise<void> {
  if (!(form instanceof FormData)) notFound();
  const { id } = await interrupts(async () => createChat(await requireTeam()));
  redirect(`/chat/${id}`);
}
