"use client";
// The message box: Enter sends, Shift+Enter adds a line; Send, or Stop while a reply is written.
import { useRef, useState } from "react";
import { ArrowUp, Square } from "lucide-react";

export function Composer({
  busy,
  maxChars,
  onSend,
  onStop,
  toolbar,
}: {
  busy: boolean;
  maxChars: number;
  onSend: (text: string) => void;
  onStop: () => void;
  /** Controls under the message box (the model picker, tool choices). */
  toolbar?: React.ReactNode;
}) {
  const [text, setText] = useState("");
  const ref = useRef<HTMLTextAreaElement>(null);
  const tooLong = text.length > maxChars;
  const canSend = !busy && text.trim().length > 0 && !tooLong;

  function send() {
    if (!canSend) return;
    onSend(text.trim());
    setText("");
    ref.current?.focus();
  }

  return (
    <form
      className="border-t border-zinc-200 bg-white px-4 py-3 dark:border-zinc-800 dark:bg-zinc-950"
      onSubmit={(e) => {
        e.preventDefault();
        send();
      }}
    >
      <div className="mx-auto flex max-w-3xl items-end gap-2">
        <label htmlFor="composer" className="sr-only">
          Message
        </label>
        <textarea
          id="composer"
          ref={ref}
          value={text}
          rows={1}
          placeholder="Message"
          aria-invalid={tooLong || undefined}
          aria-describedby={tooLong ? "composer-too-long" : undefined}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              send();
            }
          }}
          className="max-h-48 min-h-10 flex-1 resize-none rounded-xl border border-zinc-300 bg-white px-3 py-2 text-sm [field-sizing:content] dark:border-zinc-700 dark:bg-zinc-900"
        />
        {busy ? (
          <button type="button" onClick={onStop} className="inline-flex h-10 items-center gap-1 rounded-xl bg-zinc-800 px-3 text-sm font-medium text-white hover:bg-zinc-700 dark:bg-zinc-200 dark:text-zinc-900">
            <Square className="size-3 fill-current" aria-hidden /> Stop
          </button>
        ) : (
          <button type="submit" disabled={!canSend} className="inline-flex h-10 items-center gap-1 rounded-xl bg-accent px-3 text-sm font-medium text-white hover:bg-accent-strong disabled:opacity-50">
            <ArrowUp className="size-4" aria-hidden /> Send
          </button>
        )}
      </div>
      {toolbar && <div className="mx-auto mt-2 flex max-w-3xl flex-wrap items-center gap-3">{toolbar}</div>}
      {tooLong && (
        <p id="composer-too-long" role="alert" className="mx-auto mt-1 max-w-3xl text-xs text-red-600">
          The message is {text.length.toLocaleString()} characters; the limit is {maxChars.toLocaleString()}.
        </p>
      )}
    </form>
  );
}
