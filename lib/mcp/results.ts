// MCP tool results: bounded to what Parley keeps (capResult), and as text for the model (the content
// blocks as text — images and audio are named, not inlined: not every provider accepts media in tool
// results —, resource links as "title <url>", structured content as JSON). A cut result carries
// `parleyTruncated`, which the tool block shows and the model's text states. The UI renders the
// stored result itself.
import type { CallToolResult } from "@modelcontextprotocol/client";

/** The most characters of a result's text the model receives, whatever is stored. */
export const MAX_MODEL_CHARS = 100_000;
/** The most characters of an error result's message. */
const MAX_ERROR_CHARS = 10_000;

type Block = CallToolResult["content"][number];

/** What was cut from a result: its size as received and as kept (characters of JSON). */
export type Truncation = { receivedChars: number; keptChars: number; droppedBlocks: number; droppedStructured: boolean };
export type CappedResult = CallToolResult & { parleyTruncated?: Truncation };

const size = (v: unknown) => JSON.stringify(v)?.length ?? 0;

/** `s` cut to at most `n` UTF-16 units, never between the halves of a surrogate pair. */
function cutString(s: string, n: number): string {
  if (s.length <= n) return s;
  const end = n > 0 && /[\uD800-\uDBFF]/.test(s[n - 1]) ? n - 1 : n;
  return s.slice(0, Math.max(0, end));
}

/** The longest prefix of `s` whose JSON form fits in `budget` characters (escapes count). */
function fitString(s: string, budget: number): string {
  let cut = cutString(s, budget);
  for (let i = 0; i < 4 && size(cut) > budget; i++) cut = cutString(cut, Math.floor((cut.length * budget) / size(cut)) - 2);
  return cut;
}

/** A block cut to `budget` characters of JSON, or undefined when nothing useful of it fits. */
function cutBlock(b: Block, budget: number): Block | undefined {
  const room = budget - size({ ...b, text: "", resource: undefined }) - 50;
  if (room < 100) return undefined;
  if (b.type === "text") return { ...b, text: `${fitString(b.text, room)}…` };
  if (b.type === "resource" && typeof (b.resource as { text?: unknown }).text === "string") {
    const r = b.resource as { uri: string; text: string };
    return { ...b, resource: { ...b.resource, text: `${fitString(r.text, room - size(r.uri))}…` } } as Block;
  }
  return undefined; // images, audio and blobs are not cut in the middle
}

/**
 * The result as Parley keeps, shows and stores it: at most `maxChars` characters of JSON. Blocks are
 * kept in order while they fit; the block that crosses the limit is cut when it is text, and left out
 * otherwise (an image is not cut in half); structured content is kept only whole.
 */
export function capResult(result: CallToolResult, maxChars: number): CappedResult {
  const content = result.content ?? [];
  const sizes = content.map(size);
  const structured = result.structuredContent === undefined ? 0 : size(result.structuredContent);
  const rest = size({ ...result, content: [], structuredContent: undefined });
  // The result's JSON size, from its parts (the commas between blocks, the structured content's key).
  const received = rest + sizes.reduce((a, b) => a + b, 0) + Math.max(0, sizes.length - 1) + (result.structuredContent === undefined ? 0 : structured + 21);
  if (received <= maxChars) return result;
  let budget = maxChars - rest - 200;
  const kept: Block[] = [];
  let dropped = 0;
  for (const [i, b] of content.entries()) {
    if (sizes[i] + 1 <= budget) {
      kept.push(b);
      budget -= sizes[i] + 1;
      continue;
    }
    // The block that crosses the limit is cut when it is text; after a cut nothing more is kept.
    const cut = budget > 0 ? cutBlock(b, budget) : undefined;
    if (cut) {
      kept.push(cut);
      budget = 0;
    } else dropped++;
  }
  const keepStructured = result.structuredContent !== undefined && structured <= budget;
  const out: CappedResult = { ...result, content: kept };
  if (!keepStructured) delete out.structuredContent;
  const droppedStructured = result.structuredContent !== undefined && !keepStructured;
  out.parleyTruncated = { receivedChars: received, keptChars: size(out), droppedBlocks: dropped, droppedStructured };
  return out;
}

/** How images reach the model: as images (`attach`), or named with a note that it cannot see them. */
export type ImageHandling = "attach" | "placeholder";

function blockText(b: Block, images: ImageHandling = "attach"): string {
  switch (b.type) {
    case "text":
      return b.text;
    case "image":
      return images === "attach" ? `[image ${b.mimeType}, attached]` : `[image ${b.mimeType}: not shown — this model does not accept images]`;
    case "audio":
      return `[audio ${b.mimeType}]`;
    case "resource_link":
      return `[${b.title ?? b.name}](${b.uri})${b.description ? ` — ${b.description}` : ""}`;
    case "resource": {
      const r = b.resource as { uri: string; text?: string; mimeType?: string };
      return r.text !== undefined ? `Resource ${r.uri}:\n${r.text}` : `[resource ${r.uri}${r.mimeType ? ` ${r.mimeType}` : ""}]`;
    }
    default:
      return JSON.stringify(b);
  }
}

/** The marker the model reads at the end of a cut result. */
function truncationMarker(t: Pick<Truncation, "receivedChars">, modelChars: number): string {
  return `[TRUNCATED: the tool returned ${t.receivedChars.toLocaleString("en")} characters; this is only the first part (${modelChars.toLocaleString("en")} characters). The rest was not kept.]`;
}

/** The text the model receives for a successful result; a cut result ends with truncationMarker(). */
export function resultText(result: CappedResult, images: ImageHandling = "placeholder"): string {
  const parts = (result.content ?? []).map((b) => blockText(b, images));
  if (result.structuredContent !== undefined) {
    const json = JSON.stringify(result.structuredContent);
    // Servers usually repeat structured content as text; add it only when it is not there already.
    if (!parts.some((p) => p.includes(json))) parts.push(json);
  }
  const text = parts.join("\n\n") || "(the tool returned no content)";
  const cut = text.length > MAX_MODEL_CHARS ? cutString(text, MAX_MODEL_CHARS) : text;
  if (cut === text && !result.parleyTruncated) return text;
  const received = Math.max(result.parleyTruncated?.receivedChars ?? 0, text.length);
  return `${cut}\n\n${truncationMarker({ receivedChars: received }, cut.length)}`;
}

/** The text of an isError result (what went wrong, as the server said it), at most 10,000 characters. */
export function errorText(result: CallToolResult): string {
  const text =
    (result.content ?? [])
      .filter((b) => b.type === "text")
      .map((b) => (b as { text: string }).text)
      .join("\n") || "The tool reported an error.";
  return text.length > MAX_ERROR_CHARS ? `${cutString(text, MAX_ERROR_CHARS)}… (cut at ${MAX_ERROR_CHARS.toLocaleString("en")} characters)` : text;
}

/** What the model receives for a result: its text, and its images as image content when the model takes them. */
export function resultModelOutput(
  result: CappedResult,
  images: ImageHandling,
):
  | { type: "text"; value: string }
  | { type: "content"; value: ({ type: "text"; text: string } | { type: "file"; mediaType: string; data: { type: "data"; data: string } })[] } {
  const attached = images === "attach" ? (result.content ?? []).filter((b) => b.type === "image") : [];
  const text = resultText(result, images);
  if (!attached.length) return { type: "text", value: text };
  // An image is a file part of the tool's output (AI SDK 7's shape; base64 data).
  const file = (b: (typeof attached)[number]) => ({
    type: "file" as const,
    mediaType: (b as { mimeType: string }).mimeType,
    data: { type: "data" as const, data: (b as { data: string }).data },
  });
  return { type: "content", value: [{ type: "text", text }, ...attached.map(file)] };
}

/** Whether a stored tool output is an MCP result (content blocks). */
export function isMcpResult(output: unknown): output is CappedResult {
  return !!output && typeof output === "object" && Array.isArray((output as { content?: unknown }).content);
}
