"use client";
// The team's MCP resources and prompts for the composer (GET /api/mcp/catalog), fetched the first time
// the member opens Attach or types "/", then kept for the page.
import { useCallback, useState } from "react";
import type { CatalogServer } from "@/lib/chat/mcp-catalog";

export type Catalog = { servers?: CatalogServer[]; loading: boolean; error?: string; load: () => void };

export function useMcpCatalog(): Catalog {
  const [servers, setServers] = useState<CatalogServer[]>();
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string>();
  const load = useCallback(() => {
    if (servers || loading) return;
    setLoading(true);
    setError(undefined);
    fetch("/api/mcp/catalog")
      .then(async (res) => {
        if (!res.ok)
          throw new Error(
            ((await res.json().catch(() => null)) as { error?: { message?: string } } | null)?.error?.message ??
              "Could not load the servers' resources and prompts.",
          );
        setServers(((await res.json()) as { servers: CatalogServer[] }).servers);
      })
      .catch((err: Error) => setError(err.message))
      .finally(() => setLoading(false));
  }, [servers, loading]);
  return { servers, loading, error, load };
}
