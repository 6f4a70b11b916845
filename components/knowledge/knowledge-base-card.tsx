"use client";
// One knowledge base: its name, description and embedding model; for those who manage it, Rename,
// Delete (behind a confirmation: its documents and passages go too), "Upload documents" (several files
// at once) and "Add from URL"; and its documents (documents-table.tsx), kept current while any is
// being indexed (use-documents.ts). Failures show in the base's alert.
import { useState } from "react";
import { useRouter } from "next/navigation";
import type { BaseSummary } from "@/lib/knowledge/knowledge-bases";
import type { DocumentView } from "@/lib/knowledge/documents";
import { Button } from "../ui/button";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "../ui/dialog";
import { Field, FormMessage, TextareaField } from "../ui/field";
import { Label } from "../ui/label";
import { fetchJson, serverMessage, ApiError } from "../shared/fetch-json";
import { DocumentsTable } from "./documents-table";
import { ACCEPTED_TYPES, formatSize } from "./format";
import { useDocuments } from "./use-documents";

type Props = { base: BaseSummary; documents: DocumentView[]; providerName: string | null };

function RenameForm({ base, done }: { base: BaseSummary; done: () => void }) {
  const router = useRouter();
  const [error, setError] = useState<{ message?: string; fields?: Record<string, string> }>({});
  const [pending, setPending] = useState(false);
  async function save(form: FormData) {
    setPending(true);
    try {
      await fetchJson(`/api/knowledge-bases/${base.id}`, { method: "PATCH", body: { name: form.get("name"), description: form.get("description") } });
      router.refresh();
      done();
    } catch (err) {
      setError({ message: serverMessage(err) ?? "Could not save. Try again.", fields: err instanceof ApiError ? err.fields : undefined });
    }
    setPending(false);
  }
  return (
    <form
      aria-label={`Rename ${base.name}`}
      className="flex flex-col gap-3"
      onSubmit={(e) => {
        e.preventDefault();
        void save(new FormData(e.currentTarget));
      }}
    >
      <Field label="Name" name="name" defaultValue={base.name} maxLength={100} required error={error.fields?.name} />
      <TextareaField label="Description" name="description" defaultValue={base.description} maxLength={2000} rows={2} error={error.fields?.description} />
      <FormMessage message={error.message} />
      <div className="flex gap-2">
        <Button type="submit" size="sm" disabled={pending}>
          {pending ? "Saving…" : "Save"}
        </Button>
        <Button size="sm" variant="ghost" onClick={done}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

function DeleteBase({ base, documents }: { base: BaseSummary; documents: number }) {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string>();
  async function remove() {
    setPending(true);
    setError(undefined);
    try {
      await fetchJson(`/api/knowledge-bases/${base.id}`, { method: "DELETE" });
      router.refresh();
    } catch (err) {
      setError(serverMessage(err) ?? "Could not delete the knowledge base. Try again.");
      setPending(false);
    }
  }
  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>
        <Button size="sm" variant="ghost" className="text-danger" aria-label={`Delete ${base.name}`}>
          Delete
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogTitle>Delete “{base.name}”?</AlertDialogTitle>
        <AlertDialogDescription>
          {documents === 0
            ? "It has no documents."
            : `Its ${documents === 1 ? "document" : `${documents} documents`} and all their passages are deleted with it.`}{" "}
          Chats that cited it keep their quotes.
        </AlertDialogDescription>
        <FormMessage message={error} />
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <Button variant="danger" disabled={pending} onClick={() => void remove()}>
            {pending ? "Deleting…" : "Delete knowledge base"}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

function AddDocuments({ base, changed, report }: { base: BaseSummary; changed: () => Promise<void>; report: (m: string | undefined) => void }) {
  const [busy, setBusy] = useState<string>();
  const [urlError, setUrlError] = useState<string>();
  async function upload(files: File[]) {
    report(undefined);
    const failures: string[] = [];
    for (const [i, file] of files.entries()) {
      setBusy(`Uploading ${file.name}${files.length > 1 ? ` (${i + 1} of ${files.length})` : ""}…`);
      const form = new FormData();
      form.set("file", file);
      try {
        await fetchJson(`/api/knowledge-bases/${base.id}/documents`, { method: "POST", body: form });
      } catch (err) {
        failures.push(serverMessage(err) ?? `Could not upload ${file.name}.`);
      }
      await changed();
    }
    setBusy(undefined);
    if (failures.length) report(failures.join(" "));
  }
  async function addUrl(form: HTMLFormElement) {
    const url = String(new FormData(form).get("url") ?? "").trim();
    if (!url) return setUrlError("Enter a URL.");
    setUrlError(undefined);
    report(undefined);
    setBusy(`Fetching ${url}…`);
    try {
      await fetchJson(`/api/knowledge-bases/${base.id}/documents`, { method: "POST", body: { url } });
      form.reset();
      await changed();
    } catch (err) {
      setUrlError((err instanceof ApiError && err.fields?.url) || undefined);
      report(serverMessage(err) ?? "Could not add the document from that URL.");
    }
    setBusy(undefined);
  }
  return (
    <div className="flex flex-wrap items-end gap-4">
      <div className="flex flex-col gap-1">
        <Label htmlFor={`upload-${base.id}`}>Upload documents</Label>
        <input
          id={`upload-${base.id}`}
          type="file"
          multiple
          accept={ACCEPTED_TYPES}
          disabled={!!busy}
          className="text-sm file:mr-2 file:rounded-md file:border file:border-line-strong file:bg-surface file:px-2 file:py-1 file:text-sm"
          onChange={(e) => {
            const files = [...(e.currentTarget.files ?? [])];
            e.currentTarget.value = "";
            if (files.length) void upload(files);
          }}
        />
        <p className="text-xs text-subtle">PDF, Word (DOCX), HTML, Markdown, CSV or plain text; up to 50 MB each.</p>
      </div>
      <form
        aria-label={`Add a document to ${base.name} from a URL`}
        className="flex min-w-64 flex-1 items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          void addUrl(e.currentTarget);
        }}
      >
        <Field label="Add from URL" name="url" type="url" maxLength={2000} placeholder="https://example.com/handbook.pdf" className="flex-1" error={urlError} />
        <Button type="submit" variant="secondary" disabled={!!busy} className={urlError ? "mb-6" : undefined}>
          Add
        </Button>
      </form>
      {busy && (
        <p role="status" className="w-full text-sm text-subtle">
          {busy}
        </p>
      )}
    </div>
  );
}

export function KnowledgeBaseCard({ base, documents: initial, providerName }: Props) {
  const { documents, reload, loadError } = useDocuments(base.id, initial);
  const [renaming, setRenaming] = useState(false);
  const [error, setError] = useState<string>();
  return (
    <li className="flex flex-col gap-4 rounded-lg border border-line p-4" aria-label={`Knowledge base ${base.name}`}>
      {renaming ? (
        <RenameForm base={base} done={() => setRenaming(false)} />
      ) : (
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="min-w-0">
            <h3 className="font-semibold">{base.name}</h3>
            {base.description && <p className="text-sm text-soft">{base.description}</p>}
            <p className="text-xs text-subtle">
              Embedded with {base.embedding.model} ({base.embedding.dimensions} dimensions){providerName ? ` on ${providerName}` : ""} ·{" "}
              {documents.length === 1 ? "1 document" : `${documents.length} documents`} · {formatSize(documents.reduce((n, d) => n + d.size, 0))}
            </p>
          </div>
          {base.canManage && (
            <div className="flex gap-2">
              <Button size="sm" variant="secondary" aria-label={`Rename ${base.name}`} onClick={() => setRenaming(true)}>
                Rename
              </Button>
              <DeleteBase base={base} documents={documents.length} />
            </div>
          )}
        </div>
      )}
      {base.canManage && <AddDocuments base={base} changed={reload} report={setError} />}
      <FormMessage message={error ?? loadError} />
      <DocumentsTable baseName={base.name} documents={documents} canManage={base.canManage} changed={reload} report={setError} />
    </li>
  );
}
