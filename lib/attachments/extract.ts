// The text of an attachment, for models that cannot read the file itself (and for search): a text
// file's own text (kept as it arrives, sniff.ts); a PDF's text through unpdf (PDF.js, maintained).
// Bounded, so a huge document does not flood the model's context. A PDF without extractable text (a
// scan) gives null.

/** The most characters of extracted text kept per attachment. */
export const MAX_EXTRACTED_CHARS = 200_000;

/** The text as stored: null when blank, cut (and saying so) past MAX_EXTRACTED_CHARS. */
export function boundText(text: string | null): string | null {
  if (!text?.trim()) return null;
  return text.length > MAX_EXTRACTED_CHARS ? `${text.slice(0, MAX_EXTRACTED_CHARS)}\n[… cut: the document is longer]` : text;
}

/** A PDF's text (PDF.js needs the whole document), or null when it has none or is damaged. */
export async function pdfText(bytes: Uint8Array): Promise<string | null> {
  try {
    const { extractText: fromPdf, getDocumentProxy } = await import("unpdf");
    // PDF.js takes the buffer over: give it a copy.
    const pdf = await getDocumentProxy(new Uint8Array(bytes));
    const { text } = await fromPdf(pdf, { mergePages: true });
    await pdf.destroy();
    return text;
  } catch {
    return null; // a damaged PDF: stored and shown, but there is no text to give a model
  }
}
