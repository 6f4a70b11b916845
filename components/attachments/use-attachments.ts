"use client";
// The files waiting to go with the next message: each uploaded as soon as it is picked, pasted or
// dropped (POST /api/attachments), with its state, or the server's reason for refusing it.
import { useCallback, useState } from "react";

export type PendingFile = { key: string; name: string; state: "uploading" | "ready" | "failed"; error?: string; id?: string; mediaType?: string; url?: string };

let counter = 0;

export function useAttachments() {
  const [files, setFiles] = useState<PendingFile[]>([]);
  const update = (key: string, change: Partial<PendingFile>) => setFiles((all) => all.map((f) => (f.key === key ? { ...f, ...change } : f)));

  const add = useCallback((picked: File[]) => {
    for (const file of picked) {
      const key = `f${counter++}`;
      setFiles((all) => [...all, { key, name: file.name, state: "uploading" }]);
      const form = new FormData();
      form.append("file", file);
      void fetch("/api/attachments", { method: "POST", body: form })
        .then(async (res) => {
          const body = (await res.json().catch(() => null)) as { attachment?: { id: string; mediaType: string; url: string; name: string }; error?: { message?: string } } | null;
          if (!res.ok || !body?.attachment) return update(key, { state: "failed", error: body?.error?.message ?? "Could not upload the file." });
          update(key, { state: "ready", id: body.attachment.id, mediaType: body.attachment.mediaType, url: body.attachment.url, name: body.attachment.name });
        })
        .catch(() => update(key, { state: "failed", error: "Could not reach the server." }));
    }
  }, []);

  // A removed upload is deleted on the server too, so it no longer counts against the member's unsent limit.
  const remove = (key: string) => {
    const id = files.find((f) => f.key === key)?.id;
    if (id) void fetch(`/api/attachments/${id}`, { method: "DELETE" }).catch(() => undefined);
    setFiles((all) => all.filter((f) => f.key !== key));
  };
  const clear = useCallback(() => setFiles([]), []);
  /** Puts files back (a message the server refused): those not waiting again already. */
  const restore = useCallback((back: PendingFile[]) => setFiles((all) => [...back.filter((b) => !all.some((f) => f.key === b.key)), ...all]), []);
  const ready = files.filter((f) => f.state === "ready");
  /** The file parts of the message (the server reads only their ids). */
  const parts = ready.map((f) => ({ type: "file" as const, mediaType: f.mediaType!, url: f.url!, filename: f.name }));
  return { files, add, remove, clear, restore, parts, uploading: files.some((f) => f.state === "uploading") };
}
