"use client";
// The composer's "Add files" button (a paperclip) and the list of files waiting to be sent, each with
// its state, a thumbnail for an image, and a Remove button. Picking, pasting and dropping all end in
// `onFiles`. "Add files" is for files from this device; "Attach a server resource" (attach-menu.tsx)
// for what an MCP server offers.
import { useRef } from "react";
import { FileText, Loader2, Paperclip, X } from "lucide-react";
import { Button } from "../../ui/button";
import { Tooltip } from "../../ui/tooltip";
import type { PendingFile } from "./use-attachments";

/** What the file picker offers (the server checks the bytes regardless). */
const ACCEPT =
  "image/png,image/jpeg,image/gif,image/webp,application/pdf,text/*,.md,.csv,.json,.ts,.tsx,.js,.py,.go,.rs,.java,.c,.cpp,.h,.rb,.sh,.yaml,.yml,.toml,.sql";

export function AddFilesButton({ onFiles, disabled }: { onFiles: (files: File[]) => void; disabled?: boolean }) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <Tooltip content="Add files from this device (or paste, or drop them here)">
        <Button size="xs" variant="ghost" aria-label="Add files" disabled={disabled} onClick={() => input.current?.click()} className="gap-1">
          <Paperclip className="size-4" aria-hidden /> Add files
        </Button>
      </Tooltip>
      <input
        ref={input}
        type="file"
        multiple
        accept={ACCEPT}
        className="sr-only"
        tabIndex={-1}
        aria-hidden
        onChange={(e) => {
          onFiles([...(e.target.files ?? [])]);
          e.target.value = "";
        }}
      />
    </>
  );
}

export function PendingFiles({ files, onRemove }: { files: PendingFile[]; onRemove: (key: string) => void }) {
  if (!files.length) return null;
  return (
    <ul aria-label="Files to send" className="mx-auto mb-2 flex max-w-3xl flex-wrap gap-2">
      {files.map((f) => (
        <li key={f.key} className="flex max-w-full items-center gap-1 rounded-md border border-line-strong px-2 py-1 text-xs" data-state={f.state}>
          {f.preview && (
            // eslint-disable-next-line @next/next/no-img-element -- a local object URL of the picked file
            <img src={f.preview} alt={`Preview of ${f.name}`} className="size-8 shrink-0 rounded object-cover" />
          )}
          {f.state === "uploading" ? (
            <Loader2 className="size-3 animate-spin" aria-label="Uploading" />
          ) : (
            !f.preview && <FileText className="size-3" aria-hidden />
          )}
          <span className="max-w-48 truncate">{f.name}</span>
          {f.state === "failed" && <span className="text-danger">— {f.error}</span>}
          <Button size="xs" variant="ghost" aria-label={`Remove ${f.name}`} onClick={() => onRemove(f.key)} className="h-5 px-1">
            <X className="size-3" aria-hidden />
          </Button>
        </li>
      ))}
    </ul>
  );
}

/** The files of a paste or a drop (none: let the browser handle it as text). */
export function filesOf(data: DataTransfer | null): File[] {
  return data ? [...data.files] : [];
}
