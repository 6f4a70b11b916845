"use client";
// The files of a question, under its text: images inline (same-origin attachments load at once),
// other files as links that open the stored attachment (GET /api/attachments/<id>).
import { Paperclip } from "lucide-react";
import type { ParleyPart } from "@/lib/messages/message-types";
import { GatedImage } from "../../shared/gated-image";

export function AttachedFiles({ parts }: { parts: ParleyPart[] }) {
  const files = parts.flatMap((p) => (p.type === "file" ? [p] : []));
  if (!files.length) return null;
  return (
    <ul className="mt-2 flex flex-col items-end gap-1 whitespace-normal" aria-label="Attached files">
      {files.map((f, i) => (
        <li key={i} className="max-w-full">
          {f.mediaType.startsWith("image/") ? (
            <GatedImage src={f.url} alt={f.filename ?? "Attached image"} className="max-h-80 rounded-md" />
          ) : (
            <a href={f.url} className="inline-flex items-center gap-1 text-sm text-accent-text underline" target="_blank" rel="noreferrer">
              <Paperclip className="size-3.5" aria-hidden />
              {f.filename ?? "Attached file"}
            </a>
          )}
        </li>
      ))}
    </ul>
  );
}
