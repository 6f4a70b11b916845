// MCP tool results for the model: the content blocks of a CallToolResult as text (images and audio
// are named, not inlined: not every provider accepts media in tool results), resource links as
// "title <url>", and structured content as JSON. The UI renders the stored result itself.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

const MAX_MODEL_CHARS = 100_000;

type Block = CallToolResult["content"][number];

function blockText(b: Block): string {
  switch (b.type) {
    case "text":
      return b.text;
    case "image":
      return `[image ${b.mimeType}]`;
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

/** The text the model receives for a successful result. */
export function resultText(result: CallToolResult): string {
  const parts = (result.content ?? []).map(blockText);
  if (result.structuredContent !== undefined) {
    const json = JSON.stringify(result.structuredContent);
    // Servers usually repeat structured content as text; add it only when it is not there already.
    if (!parts.some((p) => p.includes(json))) parts.push(json);
  }
  const text = parts.join("\n\n") || "(the tool returned no content)";
  return text.length > MAX_MODEL_CHARS ? `${text.slice(0, MAX_MODEL_CHARS)}\n… (cut at ${MAX_MODEL_CHARS} characters)` : text;
}

/** The text of an isError result (what went wrong, as the server said it). */
export function errorText(result: CallToolResult): string {
  return (result.content ?? []).filter((b) => b.type === "text").map((b) => (b as { text: string }).text).join("\n") || "The tool reported an error.";
}
