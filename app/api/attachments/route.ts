// POST (multipart/form-data, field "file"): upload one attachment for the next message, stored as it
// arrives; its id, name, sniffed type, size and url. 413 past the per-file limit, 415 for a kind of file
// Parley does not take, 409/413 past the member's unsent limits.
import { handle } from "@/lib/http";
import { config } from "@/lib/config";
import { AppError, Invalid } from "@/lib/errors";
import { uploadAttachment } from "@/lib/attachments/store";
import { readMultipartFile } from "@/lib/attachments/upload-body";
import { requireTeam } from "@/app/_server/caller";

export const POST = handle(async (req: Request) => {
  const ctx = await requireTeam();
  const file = await readMultipartFile(req, config().PARLEY_MAX_ATTACHMENT_BYTES);
  if (!file) throw Invalid("Send the file as multipart/form-data in the field “file”.");
  if (file === "too-large") throw new AppError("TooLarge", 413, "The file is too large.");
  return Response.json({ attachment: await uploadAttachment(ctx, file) }, { status: 201 });
});
