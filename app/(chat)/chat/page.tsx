// New chat: an empty composer under a fresh draft id. Nothing is stored until the first message,
// which stores the chat under that id (lib/chat/turn-load.ts) and moves the address to /chat/<id>.
import { MessagesSquare } from "lucide-react";
import { ChatScreen } from "@/components/chat/chat-screen";
import { draftChatId } from "@/lib/chat/chats";
import { maxMessageChars } from "@/lib/chat/request";
import { abortedText, SUPERSEDED } from "@/lib/chat/tool-states";
import { pickerModels } from "@/lib/providers/models";
import { teamPage } from "@/lib/teams/page-guards";

export const metadata = { title: "New chat" };

export default async function NewChatPage() {
  const ctx = await teamPage("/chat");
  const models = await pickerModels(ctx.team.id);
  const id = draftChatId();
  return (
    <ChatScreen
      key={id}
      title="New chat"
      stored={false}
      chatId={id}
      initialMessages={[]}
      hasMore={false}
      resume={false}
      maxChars={maxMessageChars()}
      models={{ groups: models.groups, selected: models.defaultModelId }}
      supersededFaces={{ denied: SUPERSEDED, aborted: abortedText("superseded", false) }}
      emptyState={
        <div className="mt-16 flex flex-col items-center gap-3 text-center">
          <MessagesSquare className="size-10 text-zinc-400" aria-hidden />
          <h2 className="text-xl font-semibold">{ctx.team.name}</h2>
          <p className="max-w-sm text-sm text-zinc-600 dark:text-zinc-400">Send a message to start a new chat, or pick one you had before.</p>
        </div>
      }
    />
  );
}
