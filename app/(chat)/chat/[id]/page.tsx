import type { Metadata } from "next";
import { ChatScreen } from "@/components/chat/chat-screen";
import { NoModelNotice } from "@/components/chat/no-model-notice";
import { teamPage, orNotFound } from "@/app/_server/page-guards";
import { chatAccess } from "@/lib/sharing/access";
import { SharedChatView } from "@/components/chat/shared-chat-view";
import { loadMessagePage } from "@/lib/chat/history";
import { maxMessageChars } from "@/lib/turn/request";
import { abortedText, SUPERSEDED } from "@/lib/messages/tool-states";
import { pickerModels } from "@/lib/providers/models";

/** The tab is named after the chat (for someone who may see it; else the default title). */
export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  const { id } = await params;
  const access = await chatAccess(await teamPage(`/chat/${id}`), id).catch(() => null);
  return access ? { title: access.chat.title || "Untitled chat" } : {};
}

export default async function ChatPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const ctx = await teamPage(`/chat/${id}`);
  const { chat, owner, ownerName, canContinue } = await orNotFound(chatAccess(ctx, id));
  if (!owner) {
    // Shared with the caller: read-only and live (components/chat/shared-chat-view.tsx).
    const page = await loadMessagePage(chat.id);
    return (
      <SharedChatView
        key={chat.id}
        chatId={chat.id}
        title={chat.title || "Untitled chat"}
        owner={ownerName}
        canContinue={canContinue}
        initialMessages={page.messages}
      />
    );
  }
  const [page, models] = await Promise.all([loadMessagePage(chat.id), pickerModels(ctx.team.id)]);
  // The chat's model when it is still offered, else the team default (the server falls back the same way).
  const selected = models.groups.some((g) => g.models.some((m) => m.id === chat.modelId)) ? chat.modelId : models.defaultModelId;
  return (
    <ChatScreen
      key={chat.id}
      title={chat.title || "Untitled chat"}
      stored
      chatId={chat.id}
      initialMessages={page.messages}
      hasMore={page.hasMore}
      firstSeq={page.firstSeq}
      resume={Boolean(chat.activeStreamId)}
      maxChars={maxMessageChars()}
      models={{ groups: models.groups, selected }}
      supersededFaces={{ denied: SUPERSEDED, aborted: abortedText("superseded", false) }}
      projectId={chat.projectId}
      notice={models.groups.length ? undefined : <NoModelNotice isAdmin={ctx.team.role === "admin"} />}
    />
  );
}
