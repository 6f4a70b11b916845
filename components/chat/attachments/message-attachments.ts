// The user message as POST /api/chat takes it: its text parts, and its files as the ids of the
// attachments already uploaded (the server reads the files from the database, never from the body).
import type { ParleyUIMessage } from "@/lib/messages/message-types";
import { attachmentIdOf } from "@/lib/format/attachment-url";

export function messageWithAttachments(message: ParleyUIMessage | undefined) {
  if (!message) return { message };
  const ids = message.parts.flatMap((p) => (p.type === "file" ? (attachmentIdOf(p.url) ?? []) : []));
  const text = { ...message, parts: message.parts.filter((p) => p.type === "text") };
  return ids.length ? { message: text, attachments: ids } : { message: text };
}
