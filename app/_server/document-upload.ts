// A knowledge document as an upload carries it: the multipart field "file", read whole up to the most
// a document may be (lib/knowledge/extract/types.ts), with a media type from its name (extraction also
// looks at the bytes). 400 without a file, 413 past the limit.
import { AppError, Invalid } from "@/lib/errors";
import { readMultipartFile } from "@/lib/attachments/upload-body";
import type { DocumentFile } from "@/lib/knowledge/documents";
import { MAX_DOCUMENT_BYTES } from "@/lib/knowledge/extract/types";
import { mediaTypeOfName, readCapped } from "@/lib/knowledge/document-file";

const tooLarge = () => new AppError("TooLarge", 413, `The file is larger than ${MAX_DOCUMENT_BYTES / 1024 / 1024} MB, the most one document may be.`);

export async function readDocumentUpload(req: Request): Promise<DocumentFile> {
  const file = await readMultipartFile(req, MAX_DOCUMENT_BYTES);
  if (!file) throw Invalid("Send the file as multipart/form-data in the field “file”.");
  if (file === "too-large") throw tooLarge();
  const bytes = await readCapped(file.body, MAX_DOCUMENT_BYTES);
  if (bytes === "too-large") throw tooLarge();
  return { name: file.name, mediaType: mediaTypeOfName(file.name), bytes };
}
