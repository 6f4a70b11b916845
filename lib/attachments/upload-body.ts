// Reads an upload's multipart body with a byte cap (the file's limit plus room for the envelope), so an
// oversized upload is refused while it arrives instead of being held in memory whole.
const ENVELOPE = 64 * 1024;

/** The field "file" of a multipart body; "too-large" past the cap; undefined when there is none. */
export async function readMultipartFile(req: Request, maxFileBytes: number): Promise<{ name: string; bytes: Uint8Array } | "too-large" | undefined> {
  const type = req.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data;/i.test(type) || !req.body) return undefined;
  const cap = maxFileBytes + ENVELOPE;
  if (Number(req.headers.get("content-length") ?? "0") > cap) return "too-large";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > cap) {
      await reader.cancel();
      return "too-large";
    }
    chunks.push(value);
  }
  let form: FormData;
  try {
    form = await new Response(Buffer.concat(chunks), { headers: { "content-type": type } }).formData();
  } catch {
    return undefined;
  }
  const file = form.get("file");
  if (!file || typeof file === "string") return undefined;
  return { name: file.name, bytes: new Uint8Array(await file.arrayBuffer()) };
}
