"use client";
// One message: its parts, its sources, its status and a copy button. Memoised, so a long chat does
// not re-render old messages for every streamed token (useChat keeps their objects stable).
import { memo, useState } from "react";
import { Check, Copy } from "lucide-react";
import type { ParleyUIMessage } from "@/lib/chat/message-types";
import { PartView } from "./message-parts";
import { SourcesList } from "./citations";
import { Button } from "../ui/button";
import { Tooltip } from "../ui/tooltip";

function plainText(message: ParleyUIMessage): string {
  return message.parts
    .filter((p) => p.type === "text")
    .map((p) => (p as { text: string }).text)
    .join("\n\n");
}

function CopyButton({ text }: { text: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <Tooltip content={copied ? "Copied" : "Copy message"}>
      <Button
        variant="ghost"
        size="icon"
        aria-label="Copy message"
        onClick={async () => {
          await navigator.clipboard?.writeText(text).catch(() => {});
          setCopied(true);
          setTimeout(() => setCopied(false), 1500);
        }}
      >
        {copied ? <Check className="size-4" aria-hidden /> : <Copy className="size-4" aria-hidden />}
      </Button>
    </Tooltip>
  );
}

export const MessageItem = memo(function MessageItem({
  message,
  busy,
  onRegenerate,
}: {
  message: ParleyUIMessage;
  /** This message is being written right now. */
  busy?: boolean;
  onRegenerate?: (messageId: string) => void;
}) {
  const isUser = message.role === "user";
  // Numbered citations from the server; URL sources without numbers (older messages) number in order.
  const citations =
    message.metadata?.citations ??
    message.parts.flatMap((p, i, all) =>
      p.type === "source-url" && all.findIndex((q) => q.type === "source-url" && q.url === p.url) === i ? [{ url: p.url, title: p.title, origin: "provider_search" as const }] : [],
    ).map((c, i) => ({ ...c, n: i + 1 }));
  const status = message.metadata?.status;
  const text = plainText(message);
  return (
    <article
      aria-label={isUser ? "Your message" : "Assistant message"}
      data-role={message.role}
      data-status={status}
      className={`group flex flex-col gap-2 ${isUser ? "items-end" : "items-stretch"}`}
    >
      <div className={isUser ? "max-w-[85%] whitespace-pre-wrap rounded-2xl bg-zinc-100 px-4 py-2 dark:bg-zinc-800" : "flex min-w-0 flex-col gap-3"}>
        {isUser
          ? text
          : message.parts.map((part, i) => (
              <PartView key={i} part={part} citations={message.metadata?.citations} onRegenerate={onRegenerate ? () => onRegenerate(message.id) : undefined} />
            ))}
      </div>
      <SourcesList citations={citations} />
      {!isUser && status === "interrupted" && (
        <p className="text-sm text-amber-700 dark:text-amber-400">This answer was interrupted when the server stopped. What arrived before is kept.</p>
      )}
      {!isUser && text && !busy && (
        <div className="flex gap-1 opacity-70 group-hover:opacity-100 group-focus-within:opacity-100">
          <CopyButton text={text} />
        </div>
      )}
    </article>
  );
});
