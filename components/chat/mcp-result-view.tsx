"use client";
// An MCP tool's result in its block, by content type: text as markdown (long text folded away),
// images, audio, resource links as links (a server's own resource opens in place, resource-view.tsx),
// embedded resources, anything else as JSON, and structured content as a readable view
// (structured-view.tsx); above them, what was cut from a result too large to keep.
import { Link2, Scissors } from "lucide-react";
import { Streamdown } from "streamdown";
import type { Truncation } from "@/lib/mcp/results";
import { MarkdownImage } from "../shared/gated-image";
import { formatSize, Json, LargeText, MARKDOWN_MAX_CHARS } from "../shared/large-output";
import { OpenResource } from "./resource-view";
import { StructuredView } from "./structured-view";

const markdownComponents = { img: MarkdownImage };

type McpContent =
  | { type: "text"; text: string }
  | { type: "image" | "audio"; data: string; mimeType: string }
  | { type: "resource_link"; uri: string; name?: string; title?: string; description?: string }
  | { type: "resource"; resource: { uri: string; text?: string; blob?: string; mimeType?: string } }
  | { type: string; [k: string]: unknown };
type McpResult = { content: McpContent[]; structuredContent?: unknown; parleyTruncated?: Truncation };

/** Whether a call's output is an MCP tool result (its content blocks). */
export const isMcpResult = (o: unknown): o is McpResult => !!o && typeof o === "object" && Array.isArray((o as McpResult).content);
const isHttp = (u: string) => /^https?:\/\//i.test(u);

function ContentBlock({ block, serverId }: { block: McpContent; serverId?: string }) {
  switch (block.type) {
    case "text": {
      const text = (block as { text: string }).text;
      return text.length > MARKDOWN_MAX_CHARS ? (
        <LargeText text={text} label="Long text" />
      ) : (
        <Streamdown mode="static" className="prose-chat" components={markdownComponents}>
          {text}
        </Streamdown>
      );
    }
    case "image": {
      const b = block as { data: string; mimeType: string };
      // At its own size, up to the column (self-start: the block's flex column would stretch it).
      return (
        // eslint-disable-next-line @next/next/no-img-element -- tool output, a data URL
        <img src={`data:${b.mimeType};base64,${b.data}`} alt="Image returned by the tool" className="h-auto max-h-80 w-auto max-w-full self-start rounded-md" />
      );
    }
    case "audio": {
      const b = block as { data: string; mimeType: string };
      return <audio controls src={`data:${b.mimeType};base64,${b.data}`} />;
    }
    case "resource_link": {
      const b = block as { uri: string; name?: string; title?: string; description?: string };
      const label = b.title ?? b.name ?? b.uri;
      return (
        <p className="flex items-start gap-1.5">
          <Link2 className="mt-0.5 size-3.5 shrink-0 text-subtle" aria-hidden />
          <span>
            {isHttp(b.uri) ? (
              <a href={b.uri} target="_blank" rel="noreferrer noopener" className="text-accent-text underline">
                {label}
              </a>
            ) : (
              <span title={b.uri} className="font-medium">
                {label} <span className="font-mono text-xs text-subtle">{b.uri}</span> <OpenResource serverId={serverId} uri={b.uri} label={label} />
              </span>
            )}
            {b.description && <span className="block text-xs text-subtle">{b.description}</span>}
          </span>
        </p>
      );
    }
    case "resource": {
      const r = (block as { resource: { uri: string; text?: string; mimeType?: string } }).resource;
      return (
        <div>
          <p className="font-mono text-xs text-subtle">{r.uri}</p>
          {r.text !== undefined && r.text.length > MARKDOWN_MAX_CHARS ? (
            <LargeText text={r.text} label="Long resource" />
          ) : r.text !== undefined ? (
            <pre
              tabIndex={0}
              role="region"
              aria-label={`Resource ${r.uri}`}
              className="mt-1 max-h-64 overflow-auto whitespace-pre-wrap rounded bg-inset p-2 text-xs"
            >
              {r.text}
            </pre>
          ) : (
            <p className="text-xs text-subtle">Binary resource ({r.mimeType ?? "unknown type"})</p>
          )}
        </div>
      );
    }
    default:
      return <Json value={block} label={`Content (${block.type})`} />;
  }
}

/** What was cut from a result too large to keep, and what the model received. */
function TruncatedNote({ t }: { t: Truncation }) {
  const left = [
    t.droppedBlocks ? `${t.droppedBlocks} more content block${t.droppedBlocks === 1 ? "" : "s"}` : "",
    t.droppedStructured ? "the structured content" : "",
  ]
    .filter(Boolean)
    .join(" and ");
  return (
    <p role="note" data-truncated className="flex items-start gap-1.5 rounded bg-warning px-2 py-1 text-xs text-warning-foreground">
      <Scissors className="mt-0.5 size-3.5 shrink-0" aria-hidden />
      <span>
        Truncated: the tool returned {formatSize(t.receivedChars)}; the first {formatSize(t.keptChars)} are shown and stored{left ? ` (${left} left out)` : ""}.
        The model received this first part with a note that the result was cut.
      </span>
    </p>
  );
}

export function McpResultView({ result, serverId }: { result: McpResult; serverId?: string }) {
  return (
    <div className="flex flex-col gap-2" data-tool-result="mcp">
      {result.parleyTruncated && <TruncatedNote t={result.parleyTruncated} />}
      {result.content.map((b, i) => (
        <ContentBlock key={i} block={b} serverId={serverId} />
      ))}
      {result.structuredContent !== undefined && <StructuredView value={result.structuredContent} />}
    </div>
  );
}
