"use client";
// Renders the parts of one message. One generic renderer per part kind, driven by the part itself;
// tools go through one generic tool block.
import { memo, useMemo, useRef } from "react";
import { Streamdown } from "streamdown";
import { code } from "@streamdown/code";
import { AlertTriangle, Info, RotateCcw } from "lucide-react";
import { isToolUIPart } from "ai";
import type { CitationView } from "@/lib/messages/citations";
import type { ParleyPart } from "@/lib/messages/message-types";
import { CitationMark, withCitationMarks, withPassageMarks } from "./citations";
import { LargeText, MARKDOWN_MAX_CHARS } from "../shared/large-output";
import { ToolBlock } from "./tool-block";
import { useKeyboardScrollable } from "./scrollable-blocks";
import { GatedImage, MarkdownImage } from "../shared/gated-image";
import { Button } from "../ui/button";
import { ConnectLink } from "./connect-link";

const plugins = { code };
/** Remote images wait for a click (see GatedImage). */
const baseComponents = { img: MarkdownImage };

const Markdown = memo(function Markdown({ text, streaming, citations }: { text: string; streaming: boolean; citations?: CitationView[] }) {
  // A link whose text is a citation's number is that citation's superscript (see withCitationMarks).
  const components = useMemo(() => {
    if (!citations?.length) return baseComponents;
    return {
      ...baseComponents,
      a: ({ href, children, ...rest }: React.AnchorHTMLAttributes<HTMLAnchorElement> & { node?: unknown }) => {
        const label = typeof children === "string" ? children : Array.isArray(children) && children.length === 1 ? children[0] : undefined;
        const cited = typeof label === "string" && /^\d+$/.test(label) ? citations.find((c) => c.n === Number(label)) : undefined;
        if (cited) return <CitationMark citation={cited} />;
        delete rest.node;
        return (
          <a href={href} target="_blank" rel="noreferrer" {...rest}>
            {children}
          </a>
        );
      },
    };
  }, [citations]);
  const box = useRef<HTMLDivElement>(null);
  useKeyboardScrollable(box);
  return (
    <div ref={box} className="contents">
      <Streamdown plugins={plugins} components={components} isAnimating={streaming} mode={streaming ? "streaming" : "static"} className="prose-chat">
        {text}
      </Streamdown>
    </div>
  );
});

export function PartView({ part, onRegenerate, citations }: { part: ParleyPart; onRegenerate?: () => void; citations?: CitationView[] }) {
  switch (part.type) {
    case "text": {
      const annotations = (part.providerMetadata?.openai as { annotations?: Parameters<typeof withCitationMarks>[1] } | undefined)?.annotations;
      if (part.text.length > MARKDOWN_MAX_CHARS) return <LargeText text={part.text} label="Long answer" />;
      const annotated = citations?.length && annotations?.length ? withCitationMarks(part.text, annotations, citations) : part.text;
      const marked = withPassageMarks(annotated, citations);
      return <Markdown text={marked} streaming={part.state === "streaming"} citations={marked === part.text ? undefined : citations} />;
    }
    case "reasoning":
      return (
        <details className="group rounded-md border border-line bg-panel px-3 py-2 text-sm">
          <summary className="cursor-pointer select-none text-subtle">{part.state === "streaming" ? "Thinking…" : "Reasoning"}</summary>
          {part.text.length > MARKDOWN_MAX_CHARS ? (
            <div className="mt-2">
              <LargeText text={part.text} label="Long reasoning" />
            </div>
          ) : (
            <div className="mt-2 whitespace-pre-wrap text-soft">{part.text}</div>
          )}
        </details>
      );
    case "data-error":
      return (
        <div role="alert" className="flex flex-col gap-2 rounded-md border border-error-line bg-error-soft px-3 py-2 text-sm text-on-error-soft">
          <p className="flex items-start gap-2">
            <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden />
            <span>
              <span className="font-mono text-xs">[{part.data.code}]</span> {part.data.message}
            </span>
          </p>
          {onRegenerate && (
            <Button variant="secondary" size="xs" onClick={onRegenerate} className="w-fit gap-1">
              <RotateCcw className="size-3" aria-hidden /> Regenerate
            </Button>
          )}
        </div>
      );
    case "data-notice":
      return (
        <p className="flex flex-wrap items-center gap-2 text-sm text-subtle" data-notice={part.data.code}>
          <Info className="size-4" aria-hidden /> {part.data.message}
          {part.data.code === "ConnectRequired" && part.data.serverId && <ConnectLink serverId={part.data.serverId} />}
        </p>
      );
    case "file":
      return part.mediaType.startsWith("image/") ? (
        <GatedImage src={part.url} alt={part.filename ?? "Attached image"} className="max-h-80 rounded-md" />
      ) : (
        <a href={part.url} className="text-accent-text underline" target="_blank" rel="noreferrer">
          {part.filename ?? "Attached file"}
        </a>
      );
    case "source-url":
    case "source-document":
    case "step-start":
      return null; // sources are listed under the message; steps need no mark
    default:
      if (isToolUIPart(part)) return <ToolBlock part={part} />;
      return null;
  }
}
