"use client";
// A knowledge base's documents in the browser: starts from what the page rendered, reloads them after
// a change (reload), and while any is queued or indexing reads them again every 1.5 s until all have
// settled (ready or failed). A failed read leaves the list as it was and says so.
import { useCallback, useEffect, useRef, useState } from "react";
import type { DocumentView } from "@/lib/knowledge/documents";
import { fetchJson, serverMessage } from "../shared/fetch-json";

export const POLL_MS = 1_500;

const unsettled = (docs: DocumentView[]) => docs.some((d) => d.status === "queued" || d.status === "indexing");

export function useDocuments(baseId: string, initial: DocumentView[]) {
  const [documents, setDocuments] = useState(initial);
  const [loadError, setLoadError] = useState<string>();
  const alive = useRef(true);
  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);

  const reload = useCallback(async () => {
    try {
      const { documents: fresh } = await fetchJson<{ documents: DocumentView[] }>(`/api/knowledge-bases/${baseId}/documents`, { cache: "no-store" });
      if (!alive.current) return;
      setDocuments(fresh);
      setLoadError(undefined);
    } catch (err) {
      if (alive.current) setLoadError(serverMessage(err) ?? "Could not read the documents. Their status may be out of date.");
    }
  }, [baseId]);

  const polling = unsettled(documents);
  useEffect(() => {
    if (!polling) return;
    const timer = setTimeout(() => void reload(), POLL_MS);
    return () => clearTimeout(timer);
  }, [polling, documents, reload]);

  return { documents, reload, loadError };
}
