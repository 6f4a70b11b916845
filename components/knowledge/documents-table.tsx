"use client";
// A knowledge base's documents as a table: name, status (Queued, Indexing 40% with a progress bar,
// Ready, Failed: reason), size, pages, who added it and when, its version; and for those who manage
// the base, Replace (pick a file: the next version), Re-index and Delete (behind a confirmation) on each
// row. A ready document's name opens it in the passage viewer; one fetched from the web names its site.
import { useRef, useState } from "react";
import type { DocumentView } from "@/lib/knowledge/documents";
import { Button } from "../ui/button";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "../ui/dialog";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "../ui/table";
import { fetchJson, serverMessage } from "../shared/fetch-json";
import { ACCEPTED_TYPES, formatSize, statusText } from "./format";

type Props = {
  baseName: string;
  documents: DocumentView[];
  canManage: boolean;
  /** After a change: read the documents again. */
  changed: () => Promise<void>;
  /** An action's failure, for the base's alert (undefined clears it). */
  report: (message: string | undefined) => void;
};

const hostOf = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
};

function Status({ doc }: { doc: DocumentView }) {
  const text = statusText(doc);
  if (doc.status === "indexing") {
    const pct = Math.round(doc.progress * 100);
    return (
      <div className="flex min-w-28 flex-col gap-1">
        <span>{text}</span>
        <div
          role="progressbar"
          aria-label={`Indexing ${doc.name}`}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={pct}
          className="h-1.5 w-full overflow-hidden rounded-full bg-line"
        >
          <div className="h-full bg-accent transition-[width]" style={{ width: `${pct}%` }} />
        </div>
      </div>
    );
  }
  return <span className={doc.status === "ready" ? "text-success" : doc.status === "failed" ? "text-error" : undefined}>{text}</span>;
}

function Actions({ doc, changed, report }: { doc: DocumentView } & Pick<Props, "changed" | "report">) {
  const [pending, setPending] = useState<string>();
  const picker = useRef<HTMLInputElement>(null);
  async function run(label: string, request: () => Promise<unknown>) {
    setPending(label);
    report(undefined);
    try {
      await request();
    } catch (err) {
      report(serverMessage(err) ?? `Could not ${label.toLowerCase()} ${doc.name}. Try again.`);
    }
    await changed();
    setPending(undefined);
  }
  const replace = (file: File) => {
    const form = new FormData();
    form.set("file", file);
    return run("Replace", () => fetchJson(`/api/knowledge-documents/${doc.id}`, { method: "PUT", body: form }));
  };
  return (
    <div className="flex gap-1">
      <input
        ref={picker}
        type="file"
        accept={ACCEPTED_TYPES}
        className="sr-only"
        tabIndex={-1}
        aria-label={`New version of ${doc.name}`}
        onChange={(e) => {
          const file = e.currentTarget.files?.[0];
          e.currentTarget.value = "";
          if (file) void replace(file);
        }}
      />
      <Button size="xs" variant="secondary" aria-label={`Replace ${doc.name}`} disabled={!!pending} onClick={() => picker.current?.click()}>
        {pending === "Replace" ? "Replacing…" : "Replace"}
      </Button>
      <Button
        size="xs"
        variant="secondary"
        aria-label={`Re-index ${doc.name}`}
        disabled={!!pending}
        onClick={() => void run("Re-index", () => fetchJson(`/api/knowledge-documents/${doc.id}/reindex`, { method: "POST" }))}
      >
        Re-index
      </Button>
      <AlertDialog>
        <AlertDialogTrigger asChild>
          <Button size="xs" variant="ghost" className="text-danger" aria-label={`Delete ${doc.name}`} disabled={!!pending}>
            {pending === "Delete" ? "Deleting…" : "Delete"}
          </Button>
        </AlertDialogTrigger>
        <AlertDialogContent>
          <AlertDialogTitle>Delete “{doc.name}”?</AlertDialogTitle>
          <AlertDialogDescription>Its passages go with it; chats that cited it keep their quotes.</AlertDialogDescription>
          <AlertDialogFooter>
            <AlertDialogCancel>Cancel</AlertDialogCancel>
            <AlertDialogAction asChild>
              <Button variant="danger" onClick={() => void run("Delete", () => fetchJson(`/api/knowledge-documents/${doc.id}`, { method: "DELETE" }))}>
                Delete document
              </Button>
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </div>
  );
}

export function DocumentsTable({ baseName, documents, canManage, changed, report }: Props) {
  if (!documents.length) return <p className="text-sm text-subtle">No documents yet.</p>;
  return (
    <Table label={`Documents of ${baseName}`}>
      <TableHeader>
        <TableRow>
          <TableHead>Name</TableHead>
          <TableHead>Status</TableHead>
          <TableHead>Size</TableHead>
          <TableHead>Pages</TableHead>
          <TableHead>Added by</TableHead>
          <TableHead>Added</TableHead>
          <TableHead>Version</TableHead>
          {canManage && (
            <TableHead>
              <span className="sr-only">Actions</span>
            </TableHead>
          )}
        </TableRow>
      </TableHeader>
      <TableBody>
        {documents.map((d) => (
          <TableRow key={d.id}>
            <TableCell className="max-w-56 break-words">
              {d.status === "ready" ? (
                <a href={`/knowledge/documents/${d.id}`} className="font-medium underline decoration-dim hover:text-strong">
                  {d.name}
                </a>
              ) : (
                <span className="font-medium">{d.name}</span>
              )}
              {d.sourceUrl && (
                <a href={d.sourceUrl} target="_blank" rel="noreferrer" className="block text-xs text-subtle underline decoration-dim">
                  from {hostOf(d.sourceUrl)}
                </a>
              )}
            </TableCell>
            <TableCell>
              <Status doc={d} />
            </TableCell>
            <TableCell className="whitespace-nowrap">{formatSize(d.size)}</TableCell>
            <TableCell>{d.pages ?? "—"}</TableCell>
            <TableCell>{d.addedBy ?? "—"}</TableCell>
            <TableCell className="whitespace-nowrap">
              <time dateTime={d.addedAt} suppressHydrationWarning>
                {new Date(d.addedAt).toLocaleString()}
              </time>
            </TableCell>
            <TableCell>{d.version}</TableCell>
            {canManage && (
              <TableCell>
                <Actions doc={d} changed={changed} report={report} />
              </TableCell>
            )}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
