"use client";
// The sidebar's "Shared with me": chats others in the team shared with you (by name, with the whole
// team, or through a project shared with the team), newest first. Read on every navigation, so a
// share made or revoked shows up without a reload of the page.
import { useEffect, useState } from "react";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { Users } from "lucide-react";
import { cn } from "../ui/cn";
import { onChats } from "../shared/chat-events";
import { fetchJson } from "../shared/fetch-json";

type Item = { id: string; title: string | null; owner: string; canContinue: boolean };

export function SharedWithMe() {
  const pathname = usePathname();
  const [items, setItems] = useState<Item[]>([]);
  const [tick, setTick] = useState(0);
  useEffect(() => onChats(() => setTick((t) => t + 1)), []);
  useEffect(() => {
    let stale = false;
    void fetchJson<{ chats: Item[] }>("/api/chats/shared")
      .then((body) => !stale && setItems(body.chats))
      .catch(() => {});
    return () => {
      stale = true;
    };
  }, [pathname, tick]);
  if (!items.length) return null;
  return (
    <nav aria-labelledby="shared-with-me" className="max-h-48 overflow-y-auto border-t border-line px-2 py-1">
      <h2 id="shared-with-me" className="flex items-center gap-1 px-2 pt-1 pb-0.5 text-xs font-medium text-subtle">
        <Users className="size-3" aria-hidden /> Shared with me
      </h2>
      <ul className="flex flex-col gap-0.5">
        {items.map((c) => {
          const href = `/chat/${c.id}`;
          const current = pathname === href;
          return (
            <li key={c.id}>
              <Link
                href={href}
                aria-current={current ? "page" : undefined}
                className={cn("block truncate rounded-md px-2 py-1.5 text-sm hover:bg-panel-hover", current && "bg-panel-hover font-medium")}
              >
                {c.title || "Untitled chat"} <span className="text-xs text-subtle">· {c.owner}</span>
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
