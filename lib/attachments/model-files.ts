// What a model reads of the attachments in a conversation. Files it can read natively go as AI SDK file
// parts with their bytes (images to models with vision; PDFs to vision models of providers that read
// PDFs); text and code always go as text; anything else goes as its extracted text, and the turn says
// so with a visible notice. The bytes come from the database, never from the client.
import { db } from "../db/client";
import type { ParleyUIMessage } from "../messages/message-types";
import { attachmentBytes } from "./chunks";
import { attachmentIdsOf } from "./store";

export type ModelFileCaps = { displayName: string; vision: boolean; pdf: boolean };
type Notice = { code: string; message: string };
type Part = ParleyUIMessage["parts"][number];

/** Whether a model (its row's vision flag and its provider kind) reads images and PDFs natively. */
export function fileCaps(model: { displayName: string; kind: string }, vision: boolean): ModelFileCaps {
  // OpenAI and Anthropic read PDFs as file parts; OpenAI-compatible servers (Ollama, vLLM …) mostly do not.
  return { displayName: model.displayName, vision, pdf: vision && model.kind !== "openai_compatible" };
}

/** Whether the model row is marked as seeing images (its vision flag); false when it is gone. */
export async function modelSees(modelRowId: string): Promise<boolean> {
  const prisma = await db();
  return (await prisma.model.findUnique({ where: { id: modelRowId }, select: { vision: true } }))?.vision ?? false;
}

/** The history with attachment file parts resolved for this model, and the notices for what was sent as text. */
export async function filesForModel(
  history: ParleyUIMessage[],
  model: { displayName: string; kind: string; modelRowId: string },
): Promise<{ history: ParleyUIMessage[]; notices: Notice[] }> {
  const ids = history.flatMap((m) => attachmentIdsOf(m.parts.filter((p): p is Extract<typeof p, { type: "file" }> => p.type === "file")));
  if (!ids.length) return { history, notices: [] }; // the common case costs no query
  const caps = fileCaps(model, await modelSees(model.modelRowId));
  const prisma = await db();
  const rows = await prisma.attachment.findMany({ where: { id: { in: ids }, complete: true }, select: { id: true, name: true, mediaType: true, text: true } });
  const byId = new Map(rows.map((r) => [r.id, r]));
  const readsNatively = (mediaType: string) => (mediaType.startsWith("image/") && caps.vision) || (mediaType === "application/pdf" && caps.pdf);
  const bytes = new Map<string, Buffer>();
  for (const r of rows) if (readsNatively(r.mediaType)) bytes.set(r.id, await attachmentBytes(r.id));
  const asText = new Set<string>();
  const resolved = history.map((m) => ({
    ...m,
    parts: m.parts.flatMap((p): Part[] => {
      if (p.type !== "file") return [p];
      const id = attachmentIdsOf([p])[0];
      const row = id ? byId.get(id) : undefined;
      if (!row) return p.url.startsWith("/api/") ? [] : [p]; // deleted since; a foreign url is left alone
      const image = row.mediaType.startsWith("image/");
      const native = bytes.get(row.id);
      if (native) return [{ ...p, url: `data:${row.mediaType};base64,${native.toString("base64")}` }];
      if (!row.mediaType.startsWith("text/") && row.mediaType !== "application/json") asText.add(row.name);
      const body = row.text ?? (image ? "(an image; this model cannot see images)" : "(no text could be extracted from this file)");
      return [{ type: "text" as const, text: `Attached file "${row.name}" (${row.mediaType}):\n${body}` }];
    }),
  }));
  const notices = [...asText].map((name) => ({
    code: "AttachmentAsText",
    message: `${caps.displayName} cannot read “${name}” as a file, so it was given the file's extracted text instead.`,
  }));
  return { history: resolved, notices };
}
