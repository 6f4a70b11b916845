"use client";
// The team's MCP resources and prompts for the composer (GET /api/mcp/catalog), fetched the first time
// the member opens Attach or types "/", then kept for the page.
import { useCallback, useState } from "react";
import type { CatalogServer } from "@/lib/mcp-chat/mcp-catalog";
import { fetchJson, serverMessage } from "../shared/fetch-json";

export type Catalog = { servers?: CatalogServer[]; loading: boolean; error?: string; load: () => void };

export function useMcpCatalog(): Catalog {
  const [servers, setServers] = useState<CatalogServer[]>();
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string>();
  const load = useCallback(() => {
    if (servers || loading) return;
    setLoading(true);
    setError(undefined);
    fetchJson<{ servers: CatalogServer[] }>("/api/mcp/catalog")
      .then((body) => setServers(body.servers))
      .catch((err: unknown) => setError(serverMessage(err) ?? "Could not load the servers' resources and prompts."))
      .finally(() => setLoading(false));
  }, [servers, loading]);
  return { servers, loading, error, load };
}
