"use client";
// Text and JSON too large to render as they come: markdown and syntax highlighting of a multi-megabyte
// string take seconds, and one long line overflowed the markdown parser's stack ("Maximum call stack
// size exceeded" took the whole chat page down). Such output is shown collapsed with its size, and
// rendered as plain text only when opened, at most SHOWN_CHARS of it.
import { useMemo, useState } from "react";

/** Text longer than this is not rendered as markdown. */
export const MARKDOWN_MAX_CHARS = 100_000;
/** JSON longer than this is shown collapsed (LargeText). */
const JSON_INLINE_MAX_CHARS = 20_000;
/** The most characters an opened output shows. */
const SHOWN_CHARS = 1_000_000;

export function formatSize(chars: number): string {
  if (chars < 1_000) return `${chars} characters`;
  if (chars < 999_500) return `${(chars / 1_000).toFixed(chars < 9_950 ? 1 : 0)} thousand characters`;
  return `${(chars / 1_000_000).toFixed(1)} million characters`;
}

/** A long text, collapsed with its size; opened, plain text (the first SHOWN_CHARS characters). */
export function LargeText({ text, label = "Long text" }: { text: string; label?: string }) {
  const [open, setOpen] = useState(false);
  return (
    <div className="rounded-md border border-line text-sm" data-large-output={text.length}>
      <div className="flex items-center gap-2 px-3 py-2">
        <span className="text-subtle">
          {label}: {formatSize(text.length)}
        </span>
        <button
          type="button"
          aria-expanded={open}
          onClick={() => setOpen(!open)}
          className="ml-auto rounded-md border border-line-strong px-2 py-0.5 text-xs font-medium hover:bg-raised focus-visible:outline-2 focus-visible:outline-offset-2"
        >
          {open ? "Hide" : "Show"}
        </button>
      </div>
      {open && (
        <>
          <pre
            tabIndex={0}
            role="region"
            aria-label={label}
            className="max-h-[32rem] overflow-auto whitespace-pre-wrap break-words border-t border-line p-3 text-xs"
          >
            {text.slice(0, SHOWN_CHARS)}
          </pre>
          {text.length > SHOWN_CHARS && <p className="px-3 pb-2 text-xs text-subtle">The first {formatSize(SHOWN_CHARS)} are shown.</p>}
        </>
      )}
    </div>
  );
}

/** A JSON value in a disclosure, as before for small values; a large one as LargeText inside it. */
export function Json({ value, label, open = false }: { value: unknown; label: string; open?: boolean }) {
  const text = useMemo(() => JSON.stringify(value, null, 2) ?? "undefined", [value]);
  return (
    <details open={open} className="group">
      <summary className="cursor-pointer select-none text-xs font-medium text-subtle">{label}</summary>
      {text.length > JSON_INLINE_MAX_CHARS ? (
        <div className="mt-1">
          <LargeText text={text} label={label} />
        </div>
      ) : (
        <pre tabIndex={0} role="region" aria-label={label} className="mt-1 max-h-64 overflow-auto rounded bg-inset p-2 text-xs">
          {text}
        </pre>
      )}
    </details>
  );
}
