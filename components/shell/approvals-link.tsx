"use client";
// The sidebar's "Approvals" link for admins, with the number of calls waiting for an admin of the
// team. It asks the server every few seconds (the database is the source of truth, so every instance
// answers the same) and at once when the inbox on this page decided one (approval-events.ts).
import { useEffect, useState } from "react";
import Link from "next/link";
import { Inbox } from "lucide-react";
import { onApprovalsDecided } from "../shared/approval-events";
import { fetchJson } from "../shared/fetch-json";

const POLL_MS = 5_000;

export function ApprovalsLink({ initial }: { initial?: number }) {
  const [count, setCount] = useState(initial ?? 0);
  useEffect(() => {
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout>;
    const load = async () => {
      clearTimeout(timer);
      const body = await fetchJson<{ count?: number }>("/api/approvals/count", { cache: "no-store" }).catch(() => undefined);
      if (cancelled) return;
      if (typeof body?.count === "number") setCount(body.count);
      timer = setTimeout(load, POLL_MS);
    };
    const stopListening = onApprovalsDecided(() => void load());
    timer = setTimeout(load, initial === undefined ? 0 : POLL_MS);
    return () => {
      cancelled = true;
      clearTimeout(timer);
      stopListening();
    };
  }, [initial]);
  return (
    <Link href="/admin/approvals" className="flex items-center gap-2 rounded-md px-2 py-2 text-sm hover:bg-panel-hover">
      <Inbox className="size-4" aria-hidden /> Approvals
      {count > 0 && (
        <span
          data-approvals-count={count}
          className="ml-auto rounded-full bg-amber-600 px-1.5 text-xs font-semibold text-white dark:bg-amber-500 dark:text-zinc-950"
        >
          {count}
          <span className="sr-only"> waiting</span>
        </span>
      )}
    </Link>
  );
}
