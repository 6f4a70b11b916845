"use client";
// The sidebar's chat list: a search box (titles, searched on the server), the chats in groups as the
// server labels them (Pinned, Today, Yesterday, Previous 7 days, Previous 30 days, then by month),
// "Show more" for older pages, and an "Archived" view to find and restore archived chats. Each chat
// has its menu (chat-menu.tsx). What it shows is the frame's one list state (chat-list-state.tsx).
// The search finds titles; under it, "Search messages for …" takes the words to the message search.
import { useEffect, useRef } from "react";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { Archive, ArrowLeft, Search } from "lucide-react";
import type { ChatListItem } from "@/lib/chat/chat-list";
import { Button } from "../ui/button";
import { Input } from "../ui/input";
import { cn } from "../ui/cn";
import { useChatListState } from "./chat-list-state";
import { ChatMenu } from "./chat-menu";

/** Consecutive chats with the same group label, in the server's order. */
function grouped(chats: ChatListItem[]): { label: string; chats: ChatListItem[] }[] {
  const groups: { label: string; chats: ChatListItem[] }[] = [];
  for (const c of chats) {
    const last = groups.at(-1);
    if (last?.label === c.group) last.chats.push(c);
    else groups.push({ label: c.group, chats: [c] });
  }
  return groups;
}

export function ChatList() {
  const pathname = usePathname();
  const { q, setQ, view, setView, page, loading, error, more } = useChatListState();
  const searchRef = useRef<HTMLInputElement>(null);

  const focusSearch = () => searchRef.current?.focus();
  // A chat that moved (pinned, renamed) is drawn anew in its group: its menu button gets the focus back.
  const moved = useRef<string | undefined>(undefined);
  useEffect(() => {
    const id = moved.current;
    if (!id || (document.activeElement && document.activeElement !== document.body)) return;
    moved.current = undefined;
    document.querySelector<HTMLElement>(`[data-chat-menu="${id}"]`)?.focus();
  }, [page]);
  const groups = grouped(page.chats);
  const empty = q.trim()
    ? `No ${view === "archived" ? "archived " : ""}chats match “${q.trim()}”.`
    : view === "archived"
      ? "No archived chats."
      : "No chats yet.";

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <div role="search" className="px-4 pb-2">
        <label htmlFor="chat-search" className="sr-only">
          Search chats
        </label>
        <div className="relative">
          <Search className="pointer-events-none absolute top-1/2 left-2 size-4 -translate-y-1/2 text-faint" aria-hidden />
          <Input
            id="chat-search"
            ref={searchRef}
            type="search"
            size="sm"
            placeholder="Search chats"
            value={q}
            onChange={(e) => setQ(e.target.value)}
            maxLength={200}
            className="w-full pl-8"
          />
        </div>
        {q.trim() && (
          <Link
            href={`/search?${new URLSearchParams({ q: q.trim() })}`}
            className="mt-1 block truncate rounded px-1 text-xs text-accent-text underline-offset-2 hover:underline focus-visible:outline-2"
          >
            Search messages for “{q.trim()}”
          </Link>
        )}
      </div>
      <div className="flex items-center justify-between px-4 pb-1">
        {view === "archived" ? (
          <Button size="xs" variant="ghost" onClick={() => setView("active")}>
            <ArrowLeft className="size-3" aria-hidden /> All chats
          </Button>
        ) : (
          <Button size="xs" variant="ghost" onClick={() => setView("archived")}>
            <Archive className="size-3" aria-hidden /> Archived
          </Button>
        )}
        {loading && (
          <span role="status" className="text-xs text-subtle">
            Loading…
          </span>
        )}
      </div>
      <nav aria-label={view === "archived" ? "Archived chats" : "Chats"} aria-busy={loading} className="min-h-0 flex-1 overflow-y-auto px-2 py-1">
        {error && (
          <p role="alert" className="px-2 py-1 text-sm text-danger">
            {error}
          </p>
        )}
        {!page.chats.length && !error && <p className="px-2 py-1 text-sm text-subtle">{empty}</p>}
        {groups.map((g, i) => (
          <section key={`${g.label}-${i}`} aria-labelledby={`chat-group-${i}`} className="mb-2">
            <h2 id={`chat-group-${i}`} className="px-2 pt-1 pb-0.5 text-xs font-medium text-subtle">
              {g.label}
            </h2>
            <ul className="flex flex-col gap-0.5">
              {g.chats.map((c) => {
                const href = `/chat/${c.id}`;
                const current = pathname === href;
                return (
                  <li key={c.id} className={cn("group flex items-center rounded-md hover:bg-panel-hover", current && "bg-panel-hover")}>
                    <Link
                      id={`chat-link-${c.id}`}
                      href={href}
                      aria-current={current ? "page" : undefined}
                      className={cn("min-w-0 flex-1 truncate rounded-md px-2 py-1.5 text-sm", current && "font-medium")}
                    >
                      {c.title || "Untitled chat"}
                    </Link>
                    <ChatMenu chat={c} current={current} onGone={focusSearch} onMoved={(id) => (moved.current = id)} />
                  </li>
                );
              })}
            </ul>
          </section>
        ))}
        {page.nextCursor && (
          <Button size="xs" variant="secondary" className="mx-2 mt-1" disabled={loading} onClick={() => void more()}>
            Show more
          </Button>
        )}
      </nav>
    </div>
  );
}
