"use client";
// The member's always-allowed tools, each revocable.
import { useState } from "react";
import { useRouter } from "next/navigation";
import { Button } from "../ui/button";
import { fetchJson } from "../shared/fetch-json";

type Row = { toolId: string; toolName: string; serverName: string };

export function AlwaysAllowedList({ tools }: { tools: Row[] }) {
  const router = useRouter();
  const [error, setError] = useState<string>();
  if (!tools.length) return <p className="text-sm text-subtle">No tools are always allowed. Tools that ask for approval will keep asking.</p>;
  return (
    <>
      {error && (
        <p role="alert" className="text-sm text-danger">
          {error}
        </p>
      )}
      <ul className="flex flex-col divide-y divide-line rounded-lg border border-line">
        {tools.map((t) => (
          <li key={t.toolId} className="flex items-center justify-between gap-3 px-3 py-2 text-sm">
            <span>
              <span className="text-subtle">{t.serverName} · </span>
              <span className="font-mono">{t.toolName}</span>
            </span>
            <Button
              variant="secondary"
              size="sm"
              aria-label={`Revoke always allow for ${t.toolName}`}
              onClick={async () => {
                await fetchJson("/api/tools/preferences", { method: "POST", body: { toolId: t.toolId, alwaysAllow: false } }).catch(() =>
                  setError("Could not revoke. Try again."),
                );
                router.refresh();
              }}
            >
              Revoke
            </Button>
          </li>
        ))}
      </ul>
    </>
  );
}
