"use client";
// "Test connection": connects, initialises and lists the server's tools with their descriptions,
// input schemas and annotations, or shows exactly what failed (unreachable, HTTP status, protocol
// error, timeout). Also shows the live status of the server.
import { useState, useTransition } from "react";
import { Loader2, PlugZap } from "lucide-react";
import type { McpStatus } from "@/lib/mcp/pool";
import type { ProbeResult } from "@/lib/mcp/probe";
import { Button } from "../ui/button";
import { FormMessage } from "../ui/field";
import { McpStatusBadge, useMcpStatuses } from "./mcp-status";

export function AnnotationBadges({ annotations }: { annotations?: Record<string, unknown> | null }) {
  const hints = Object.entries(annotations ?? {}).filter(([k, v]) => k.endsWith("Hint") && v === true);
  if (!hints.length) return null;
  return (
    <span className="flex flex-wrap gap-1">
      {hints.map(([k]) => (
        <span key={k} className="rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-[11px] text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300">
          {k.replace(/Hint$/, "")}
        </span>
      ))}
    </span>
  );
}

export function McpTestPanel({ serverId, test, status }: { serverId: string; test: (id: string) => Promise<ProbeResult>; status: McpStatus }) {
  const [result, setResult] = useState<ProbeResult>();
  const [pending, start] = useTransition();
  const statuses = useMcpStatuses(`/api/mcp/servers/${serverId}`, { [serverId]: status });
  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center gap-3">
        <Button variant="secondary" disabled={pending} onClick={() => start(async () => setResult(await test(serverId)))}>
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
          <p className="rounded-md bg-green-50 px-3 py-2 text-green-800 dark:bg-green-950 dark:text-green-200">
            Connected to {result.server ? `${result.server.name} ${result.server.version}` : "the server"} in {result.ms} ms: {result.tools.length} tools.
          </p>
          <ul className="flex flex-col gap-2" aria-label="Tools the server lists">
            {result.tools.map((t) => (
              <li key={t.name} className="rounded-md border border-zinc-200 px-3 py-2 dark:border-zinc-800">
                <div className="flex flex-wrap items-center gap-2">
                  <span className="font-mono text-xs font-semibold">{t.name}</span>
                  <AnnotationBadges annotations={t.annotations} />
                </div>
                {t.description && <p className="mt-1 text-zinc-600 dark:text-zinc-400">{t.description}</p>}
                <details className="mt-1">
                  <summary className="cursor-pointer text-xs text-zinc-600 dark:text-zinc-400">Input schema</summary>
                  <pre className="mt-1 max-h-48 overflow-auto rounded bg-zinc-100 p-2 text-xs dark:bg-zinc-900">{JSON.stringify(t.inputSchema, null, 2)}</pre>
                </details>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
