// How the knowledge pages write sizes and a document's status for people.
import type { DocumentView } from "@/lib/knowledge/documents";

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 102.4) / 10} KB`;
  return `${Math.round(bytes / 1024 / 102.4) / 10} MB`;
}

export function statusText(d: Pick<DocumentView, "status" | "progress" | "error">): string {
  if (d.status === "queued") return "Queued";
  if (d.status === "indexing") return `Indexing ${Math.round(d.progress * 100)}%`;
  if (d.status === "ready") return "Ready";
  return `Failed: ${d.error ?? "unknown reason"}`;
}

/** What the file input accepts: the formats extraction reads (lib/knowledge/extract). */
export const ACCEPTED_TYPES = [
  ".pdf",
  ".docx",
  ".html",
  ".htm",
  ".md",
  ".markdown",
  ".csv",
  ".txt",
  "application/pdf",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  "text/html",
  "text/markdown",
  "text/csv",
  "text/plain",
].join(",");
