"use client";
// The user's chats in this team, newest first; the open one is marked.
import Link from "next/link";
import { usePathname } from "next/navigation";
import type { ChatSummary } from "@/lib/chat/chats";

export function ChatList({ chats }: { chats: ChatSummary[] }) {
  const pathname = usePathname();
  if (!chats.length) return <p className="px-2 py-1 text-sm text-zinc-600 dark:text-zinc-400">No chats yet.</p>;
  return (
    <ul className="flex flex-col gap-0.5">
      {chats.map((c) => {
        const href = `/chat/${c.id}`;
        const current = pathname === href;
        return (
          <li key={c.id}>
            <Link
              href={href}
              aria-current={current ? "page" : undefined}
              className={`block truncate rounded-md px-2 py-1.5 text-sm hover:bg-zinc-200 dark:hover:bg-zinc-800 ${current ? "bg-zinc-200 font-medium dark:bg-zinc-800" : ""}`}
            >
              {c.title || "New chat"}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
