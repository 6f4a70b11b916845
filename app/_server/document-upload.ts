// A knowledge document as an upload carries it: the multipart field "file", read whole up to the most
// a document may be (lib/knowledge/extract/types.ts), with a media type from its name (extraction also
// looks at the bytes). 400 without a file, 413 past the limit.
import { AppError, Invalid } from "@/lib/errors";
import { readMultipartFile } from "@/lib/attachments/upload-body";
import type { DocumentFile } from "@/lib/knowledge/documents";
import { MAX_DOCUMENT_BYTES } from "@/lib/knowledge/extract/types";

const TYPES: Record<string, string> = {
  pdf: "application/pdf",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  html: "text/html",
  htm: "text/html",
  md: "text/markdown",
  markdown: "text/markdown",
  csv: "text/csv",
  txt: "text/plain",
};

const tooLarge = () => new AppError("TooLarge", 413, `The file is larger than ${MAX_DOCUMENT_BYTES / 1024 / 1024} MB, the most one document may be.`);

export async function readDocumentUpload(req: Request): Promise<DocumentFile> {
  const file = await readMultipartFile(req, MAX_DOCUMENT_BYTES);
  if (!file) throw Invalid("Send the file as multipart/form-data in the field “file”.");
  if (file === "too-large") throw tooLarge();
  const pieces: Uint8Array[] = [];
  let size = 0;
  for await (const piece of file.body) {
    size += piece.byteLength;
    if (size > MAX_DOCUMENT_BYTES) throw tooLarge();
    pieces.push(piece);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const piece of pieces) {
    bytes.set(piece, at);
    at += piece.byteLength;
  }
  const extension = /\.([a-z0-9]+)$/i.exec(file.name)?.[1]?.toLowerCase() ?? "";
  return { name: file.name, mediaType: TYPES[extension] ?? "application/octet-stream", bytes };
}
