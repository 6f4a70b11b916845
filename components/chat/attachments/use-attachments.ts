"use client";
// The files waiting to go with the next message: each uploaded as soon as it is picked, pasted or
// dropped (POST /api/attachments), with its state, or the server's reason for refusing it. An image
// has a preview from the moment it is picked (an object URL, released when it leaves the list).
import { useCallback, useState } from "react";
import { attachmentUrl } from "@/lib/format/attachment-url";
import { ApiError, fetchJson, serverMessage } from "../../shared/fetch-json";

export type PendingFile = {
  key: string;
  name: string;
  state: "uploading" | "ready" | "failed";
  error?: string;
  id?: string;
  mediaType?: string;
  url?: string;
  preview?: string;
};

const PREVIEWED = /^image\/(png|jpeg|gif|webp)$/;
const release = (f: PendingFile) => f.preview && URL.revokeObjectURL(f.preview);

let counter = 0;

export function useAttachments() {
  const [files, setFiles] = useState<PendingFile[]>([]);
  const update = (key: string, change: Partial<PendingFile>) => setFiles((all) => all.map((f) => (f.key === key ? { ...f, ...change } : f)));

  const add = useCallback((picked: File[]) => {
    for (const file of picked) {
      const key = `f${counter++}`;
      const preview = PREVIEWED.test(file.type) ? URL.createObjectURL(file) : undefined;
      setFiles((all) => [...all, { key, name: file.name, state: "uploading", preview }]);
      const form = new FormData();
      form.append("file", file);
      // No upload progress is shown, so the upload is an ordinary request.
      void fetchJson<{ attachment?: { id: string; mediaType: string; url: string; name: string } }>("/api/attachments", { method: "POST", body: form })
        .then((body) => {
          if (!body?.attachment) return update(key, { state: "failed", error: "Could not upload the file." });
          update(key, { state: "ready", id: body.attachment.id, mediaType: body.attachment.mediaType, url: body.attachment.url, name: body.attachment.name });
        })
        .catch((err: unknown) =>
          update(key, {
            state: "failed",
            error: err instanceof ApiError && err.unreachable ? "Could not reach the server." : (serverMessage(err) ?? "Could not upload the file."),
          }),
        );
    }
  }, []);

  // A removed upload is deleted on the server too, so it no longer counts against the member's unsent limit.
  const remove = (key: string) => {
    for (const f of files.filter((f) => f.key === key)) {
      release(f);
      if (f.id) void fetchJson(attachmentUrl(f.id), { method: "DELETE" }).catch(() => undefined);
    }
    setFiles((all) => all.filter((f) => f.key !== key));
  };
  const clear = useCallback(
    () =>
      setFiles((all) => {
        all.forEach(release);
        return [];
      }),
    [],
  );
  /** Puts files back (a message the server refused): those not waiting again already, without their released previews. */
  const restore = useCallback(
    (back: PendingFile[]) => setFiles((all) => [...back.filter((b) => !all.some((f) => f.key === b.key)).map((f) => ({ ...f, preview: undefined })), ...all]),
    [],
  );
  const ready = files.filter((f) => f.state === "ready");
  /** The file parts of the message (the server reads only their ids). */
  const parts = ready.map((f) => ({ type: "file" as const, mediaType: f.mediaType!, url: f.url!, filename: f.name }));
  return { files, add, remove, clear, restore, parts, uploading: files.some((f) => f.state === "uploading") };
}
