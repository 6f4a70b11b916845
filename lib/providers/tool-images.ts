// How a model receives the images tools return. A model without vision gets a placeholder in the
// tool's text. Anthropic and OpenAI's Responses API take images inside a tool result; Chat Completions
// (OpenAI and compatible servers) and the prompt-based tool mode accept only text there, so the images
// are taken out of the tool result and sent as image parts of a user message right after it — never
// as base64 text.
import type { ModelMessage } from "ai";
import type { Model, Provider } from "../db/generated/client";

export type ToolImageMode = "tool-result" | "user-message" | "none";

export function toolImageMode(m: { vision: boolean; kind: Provider["kind"]; toolCalling: Model["toolCalling"] }): ToolImageMode {
  if (!m.vision) return "none";
  if (m.toolCalling === "native" && (m.kind === "anthropic" || m.kind === "openai_responses")) return "tool-result";
  return "user-message";
}

type ContentItem = { type: string; data?: unknown; mediaType?: string; text?: string };

/** The base64 data of an inline image item of a tool's output (`file` in AI SDK 7; `image-data` before), if it is one. */
function imageData(item: ContentItem): string | undefined {
  if (item.type === "image-data" && typeof item.data === "string") return item.data;
  const data = item.data as { type?: string; data?: unknown } | undefined;
  if (item.type === "file" && item.mediaType?.startsWith("image") && data?.type === "data" && typeof data.data === "string") return data.data;
  return undefined;
}

/**
 * The messages with images moved out of tool results (user-message mode): each inline image item of a
 * tool result becomes a short text there, and the images follow in one user message after the tool
 * message. Messages without such images are returned as they are.
 */
export function moveToolImages(messages: ModelMessage[]): ModelMessage[] {
  if (!messages.some(hasToolImages)) return messages;
  const out: ModelMessage[] = [];
  for (const m of messages) {
    if (!hasToolImages(m) || m.role !== "tool") {
      out.push(m);
      continue;
    }
    const images: { data: string; mediaType: string; tool: string }[] = [];
    const content = m.content.map((part) => {
      if (part.type !== "tool-result" || part.output.type !== "content") return part;
      const value = (part.output.value as ContentItem[]).map((item) => {
        const data = imageData(item);
        if (!data) return item;
        images.push({ data, mediaType: item.mediaType ?? "image/png", tool: part.toolName });
        return { type: "text" as const, text: `[image ${images.length}: sent in the next message]` };
      });
      return { ...part, output: { ...part.output, value } } as typeof part;
    });
    out.push({ ...m, content });
    out.push({
      role: "user",
      content: [
        {
          type: "text",
          text: `The image${images.length === 1 ? "" : "s"} returned by the tool call${images.length === 1 ? "" : "s"} above (${[...new Set(images.map((i) => i.tool))].join(", ")}):`,
        },
        ...images.map((i) => ({ type: "file" as const, data: i.data, mediaType: i.mediaType })),
      ],
    });
  }
  return out;
}

function hasToolImages(m: ModelMessage): boolean {
  return (
    m.role === "tool" &&
    m.content.some((p) => p.type === "tool-result" && p.output.type === "content" && (p.output.value as ContentItem[]).some((i) => imageData(i) !== undefined))
  );
}
