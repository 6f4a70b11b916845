import { notFound } from "next/navigation";
import { teamPage } from "@/lib/auth/page-guards";
import { getChat } from "@/lib/chat/chats";
import { isAppError } from "@/lib/errors";

export default async function ChatPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const ctx = await teamPage(`/chat/${id}`);
  const chat = await getChat(ctx, id).catch((err) => {
    if (isAppError(err) && err.status === 404) notFound();
    throw err;
  });
  return (
    <div className="mx-auto flex h-full max-w-3xl flex-col px-4 pb-4 pt-14 md:pt-6">
      <h1 className="text-lg font-semibold">{chat.title || "New chat"}</h1>
      <p className="mt-6 text-sm text-zinc-600 dark:text-zinc-400">
        This chat is empty. Conversations with models arrive with the chat and provider features.
      </p>
    </div>
  );
}
