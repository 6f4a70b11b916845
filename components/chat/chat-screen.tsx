// A chat's page body: its header and its view, sharing the chat's title (chat-title.tsx). The same
// for a stored chat and for a draft (New chat), which is stored by its first message.
import { ChatHeader } from "./chat-header";
import { ChatTitleProvider } from "./chat-title";
import { ChatView, type ChatViewProps } from "./chat-view";

export type ChatScreenProps = ChatViewProps & { title: string; stored: boolean; notice?: React.ReactNode; projectId?: string | null };

/**
 * `notice`: said under the header (e.g. that the team has no model yet); `projectId`: the stored chat's
 * project (a draft's is its `project`), for the header's Move to project.
 */
export function ChatScreen({ title, stored, notice, projectId, ...view }: ChatScreenProps) {
  return (
    <ChatTitleProvider chatId={view.chatId} title={title} stored={stored}>
      <div className="flex h-full flex-col">
        <ChatHeader projectId={projectId ?? view.project?.id ?? null} />
        {notice && <div className="mx-auto w-full max-w-3xl px-4 pt-3">{notice}</div>}
        <div className="min-h-0 flex-1">
          <ChatView key={view.chatId} {...view} />
        </div>
      </div>
    </ChatTitleProvider>
  );
}
