"use client";
// The sidebar's "Approvals" link for admins, with the number of calls waiting for an admin of the
// team: from the page's live channel (components/shared/live.tsx), and read again at once when the
// inbox on this page decided one (approval-events.ts).
import { useEffect, useState } from "react";
import Link from "next/link";
import { Inbox } from "lucide-react";
import { onApprovalsDecided } from "../shared/approval-events";
import { fetchJson } from "../shared/fetch-json";
import { useLive } from "../shared/live";

export function ApprovalsLink({ initial }: { initial?: number }) {
  const [count, setCount] = useState(initial ?? 0);
  useLive("approvals", (live) => setCount(live.count));
  useEffect(
    () =>
      onApprovalsDecided(async () => {
        const body = await fetchJson<{ count?: number }>("/api/approvals/count", { cache: "no-store" }).catch(() => undefined);
        if (typeof body?.count === "number") setCount(body.count);
      }),
    [],
  );
  return (
    <Link href="/admin/approvals" className="flex items-center gap-2 rounded-md px-2 py-2 text-sm hover:bg-panel-hover">
      <Inbox className="size-4" aria-hidden /> Approvals
      {count > 0 && (
        <span data-approvals-count={count} className="ml-auto rounded-full bg-attention px-1.5 text-xs font-semibold text-on-attention">
          {count}
          <span className="sr-only"> waiting</span>
        </span>
      )}
    </Link>
  );
}
