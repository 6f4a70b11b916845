// Export: a chat as Markdown or JSON, by anyone who may see it (lib/sharing/access.ts); all chats of a
// member of the team, as JSON, by an admin (for offboarding). The branch each chat shows, as stored;
// attachments are listed by name, type and size (their bytes stay behind the access check).
import { db } from "../db/client";
import { NotFound } from "../errors";
import { viewableChat } from "../sharing/access";
import type { TeamContext } from "../teams/context";

type ExportBlock = { kind: string; text?: string | null; toolName?: string | null; input?: unknown; output?: unknown; errorText?: string | null; name?: string | null; mediaType?: string | null };
export type ExportedChat = {
  id: string;
  title: string | null;
  owner: string;
  createdAt: string;
  updatedAt: string;
  messages: { id: string; role: string; createdAt: string; model: string | null; blocks: ExportBlock[] }[];
};

async function exportRows(chatIds: string[]): Promise<ExportedChat[]> {
  const prisma = await db();
  const chats = await prisma.chat.findMany({
    where: { id: { in: chatIds } },
    orderBy: { createdAt: "asc" },
    include: {
      user: { select: { name: true } },
      messages: { where: { onBranch: true }, orderBy: { seq: "asc" }, include: { blocks: { orderBy: { ordinal: "asc" } } } },
    },
  });
  return chats.map((c) => ({
    id: c.id,
    title: c.title,
    owner: c.user.name,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
    messages: c.messages.map((m) => ({
      id: m.id,
      role: m.role,
      createdAt: m.createdAt.toISOString(),
      model: m.model,
      blocks: m.blocks
        .filter((b) => ["text", "reasoning", "tool", "file", "error"].includes(b.kind))
        .map((b) => ({ kind: b.kind, text: b.text, toolName: b.toolName, input: b.input ?? undefined, output: b.output ?? undefined, errorText: b.errorText, name: b.name, mediaType: b.mediaType })),
    })),
  }));
}

export async function exportChat(ctx: TeamContext, chatId: string): Promise<ExportedChat> {
  const chat = await viewableChat(ctx, chatId);
  return (await exportRows([chat.id]))[0];
}

/** An admin's export of all chats of a member of their team (404 for anyone not in it). */
export async function exportMemberChats(ctx: TeamContext, membershipId: string): Promise<ExportedChat[]> {
  const prisma = await db();
  const member = await prisma.membership.findFirst({ where: { id: membershipId, teamId: ctx.team.id }, select: { userId: true } });
  if (!member) throw NotFound();
  const chats = await prisma.chat.findMany({ where: { teamId: ctx.team.id, userId: member.userId }, select: { id: true } });
  return exportRows(chats.map((c) => c.id));
}

const fence = (s: string) => "```json\n" + s + "\n```";

export function chatMarkdown(chat: ExportedChat): string {
  const out = [`# ${chat.title ?? "Untitled chat"}`, "", `Exported from Parley. Owner: ${chat.owner}. Started ${chat.createdAt}.`, ""];
  for (const m of chat.messages) {
    out.push(`## ${m.role === "user" ? "User" : m.role === "assistant" ? `Assistant${m.model ? ` (${m.model})` : ""}` : "System"}`, "");
    for (const b of m.blocks) {
      if (b.kind === "text" && b.text) out.push(b.text, "");
      if (b.kind === "reasoning" && b.text) out.push(`> ${b.text.replace(/\n/g, "\n> ")}`, "");
      if (b.kind === "tool") out.push(`**Tool call: ${b.toolName}**`, "", fence(JSON.stringify(b.input ?? null, null, 2)), "", b.errorText ? `Error: ${b.errorText}` : fence(JSON.stringify(b.output ?? null, null, 2)), "");
      if (b.kind === "file") out.push(`Attachment: ${b.name ?? "file"} (${b.mediaType})`, "");
      if (b.kind === "error" && b.text) out.push(`Error: ${b.text}`, "");
    }
  }
  return out.join("\n");
}
