"use client";
// "Test connection": connects, initialises and refreshes the server's tools (listed once, in the
// Tools section below), or shows exactly what failed (unreachable, HTTP status, protocol error,
// timeout). Also shows the live status of the server, read again as soon as a test ends, so it
// agrees with the test. A test that passed on a server just added drops the page's "Test the
// connection" hint (`addedHint`: the page's ?created=1).
import { useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import { Loader2, PlugZap } from "lucide-react";
import type { McpStatus } from "@/lib/mcp/pool";
import type { ProbeResult } from "@/lib/mcp/probe";
import { Button } from "../ui/button";
import { FormMessage } from "../ui/field";
import { McpStatusBadge } from "../shared/mcp-status-badge";
import { useMcpStatuses } from "./use-mcp-statuses";

export function AnnotationBadges({ annotations }: { annotations?: Record<string, unknown> | null }) {
  const hints = Object.entries(annotations ?? {}).filter(([k, v]) => k.endsWith("Hint") && v === true);
  if (!hints.length) return null;
  return (
    <span className="flex flex-wrap gap-1">
      {hints.map(([k]) => (
        <span key={k} className="rounded bg-raised px-1.5 py-0.5 font-mono text-[11px] text-soft">
          {k.replace(/Hint$/, "")}
        </span>
      ))}
    </span>
  );
}

export function McpTestPanel({
  serverId,
  test,
  status,
  addedHint = false,
}: {
  serverId: string;
  test: (id: string) => Promise<ProbeResult>;
  status: McpStatus;
  addedHint?: boolean;
}) {
  const router = useRouter();
  const [result, setResult] = useState<ProbeResult>();
  const [pending, start] = useTransition();
  const { statuses, refresh } = useMcpStatuses(`/api/mcp/servers/${serverId}`, { [serverId]: status });
  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center gap-3">
        <Button
          variant="secondary"
          disabled={pending}
          onClick={() =>
            start(async () => {
              const outcome = await test(serverId);
              setResult(outcome);
              await refresh();
              if (outcome.ok && addedHint) router.replace(`/admin/mcp/${serverId}`, { scroll: false });
            })
          }
        >
          {pending ? <Loader2 className="size-4 animate-spin" aria-hidden /> : <PlugZap className="size-4" aria-hidden />}
          {pending ? "Testing…" : "Test connection"}
        </Button>
        <span aria-label="Status">
          <McpStatusBadge status={statuses[serverId] ?? status} detailed />
        </span>
      </div>
      {result && !result.ok && <FormMessage message={result.message} data-failure={result.kind} />}
      {result?.ok && (
        <div role="status" className="flex flex-col gap-2 text-sm">
          <p className="rounded-md bg-success-soft px-3 py-2 text-on-success-soft">
            Connected to {result.server ? `${result.server.name} ${result.server.version}` : "the server"}
            {result.protocolVersion ? ` (MCP ${result.protocolVersion})` : ""} in {result.ms} ms: {result.tools.length} tools. They are listed under Tools
            below.
          </p>
        </div>
      )}
    </div>
  );
}
