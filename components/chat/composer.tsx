"use client";
// The message box: Enter sends, Shift+Enter adds a line; Send, or Stop while a reply is written.
// It takes focus when the chat opens (after New chat, a person types straight away). A message the
// server refuses (a budget used up, too many messages) comes back into the box, unless something new
// was typed meanwhile, so it can be sent later.
import { useEffect, useRef, useState } from "react";
import { ArrowUp, Square } from "lucide-react";
import { Button } from "../ui/button";
import { Textarea } from "../ui/input";
import { AttachedChips, AttachMenu, type Attached } from "./attach-menu";
import { COMPOSER_ID } from "../shared/focus-composer";
import { usePromptCombobox } from "./prompt-picker";
import { useMcpCatalog } from "./use-mcp-catalog";

export function Composer({
  busy,
  maxChars,
  onSend,
  onStop,
  toolbar,
  onFiles,
  above,
  holdSend = false,
}: {
  busy: boolean;
  maxChars: number;
  /** Sends; a promise of whether the server took the message (false: it is given back to the box). */
  onSend: (text: string, attached: Attached[]) => void | Promise<boolean>;
  onStop: () => void;
  /** Controls under the message box (the model picker, tool choices). */
  toolbar?: React.ReactNode;
  /** Files pasted or dropped on the message box (attachments/). */
  onFiles?: (files: File[]) => void;
  /** Shown above the message box (the files waiting to be sent). */
  above?: React.ReactNode;
  /** Send waits (files still uploading). */
  holdSend?: boolean;
}) {
  const [text, setText] = useState("");
  const [attached, setAttached] = useState<Attached[]>([]);
  const [promptsClosed, setPromptsClosed] = useState(false);
  const catalog = useMcpCatalog();
  // "/" at the start of the box (and no space yet): the prompt list, filtered by what follows.
  const slash = !promptsClosed && /^\/\S*$/.test(text) ? text.slice(1) : undefined;
  const ref = useRef<HTMLTextAreaElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const prompts = usePromptCombobox({
    catalog,
    query: slash,
    anchor: box,
    onClose: () => {
      setPromptsClosed(true);
      ref.current?.focus();
    },
    onInsert: (inserted) => {
      setText(inserted);
      ref.current?.focus();
    },
  });
  const tooLong = text.length > maxChars;
  useEffect(() => ref.current?.focus({ preventScroll: true }), []);
  const canSend = !busy && !holdSend && text.trim().length > 0 && !tooLong && !prompts.open;

  function send() {
    if (!canSend) return;
    const sent = text.trim();
    const chips = attached;
    const outcome = onSend(sent, chips);
    setText("");
    setAttached([]);
    ref.current?.focus();
    void outcome?.then((accepted) => {
      if (accepted) return;
      setText((now) => now || sent);
      setAttached((now) => (now.length ? now : chips));
    });
  }

  // The prompt list holds a form of its own (the prompt's arguments), so it sits outside the composer's
  // form (in a portal, and in React's tree too): a form inside a form would send the message when its
  // "Insert prompt" is pressed.
  return (
    <div ref={box} className="border-t border-line bg-page px-4 py-3">
      {prompts.popover}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          send();
        }}
        onPaste={(e) => {
          if (!onFiles || !e.clipboardData.files.length) return;
          e.preventDefault();
          onFiles([...e.clipboardData.files]);
        }}
        onDragOver={(e) => onFiles && e.dataTransfer.types.includes("Files") && e.preventDefault()}
        onDrop={(e) => {
          if (!onFiles || !e.dataTransfer.files.length) return;
          e.preventDefault();
          onFiles([...e.dataTransfer.files]);
        }}
      >
        {above}
        <AttachedChips attached={attached} onRemove={(i) => setAttached((a) => a.filter((_, j) => j !== i))} />
        <div className="mx-auto flex max-w-3xl items-end gap-2">
          <AttachMenu
            catalog={catalog}
            disabled={busy || attached.length >= 5}
            onAttach={(a) => setAttached((old) => (old.some((o) => o.serverId === a.serverId && o.uri === a.uri) ? old : [...old, a]))}
          />
          <label htmlFor="composer" className="sr-only">
            Message
          </label>
          <Textarea
            id={COMPOSER_ID}
            ref={ref}
            value={text}
            rows={1}
            placeholder="Message"
            aria-invalid={tooLong || undefined}
            aria-describedby={tooLong ? "composer-too-long" : undefined}
            {...prompts.inputProps}
            onChange={(e) => {
              setText(e.target.value);
              if (e.target.value === "/") setPromptsClosed(false);
              // Typed or pasted whole ("/rev"): the list needs the catalog either way (loaded once).
              if (/^\/\S*$/.test(e.target.value)) catalog.load();
            }}
            onKeyDown={(e) => {
              if (prompts.onKeyDown(e)) return;
              if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
                e.preventDefault();
                send();
              }
            }}
            className="max-h-48 min-h-10 flex-1 resize-none rounded-xl [field-sizing:content]"
          />
          {busy ? (
            <Button variant="inverted" onClick={onStop} className="gap-1 rounded-xl px-3">
              <Square className="size-3 fill-current" aria-hidden /> Stop
            </Button>
          ) : (
            <Button type="submit" disabled={!canSend} className="gap-1 rounded-xl px-3">
              <ArrowUp className="size-4" aria-hidden /> Send
            </Button>
          )}
        </div>
        {toolbar && <div className="mx-auto mt-2 flex max-w-3xl flex-wrap items-center gap-3">{toolbar}</div>}
        {tooLong && (
          <p id="composer-too-long" role="alert" className="mx-auto mt-1 max-w-3xl text-xs text-danger">
            The message is {text.length.toLocaleString()} characters; the limit is {maxChars.toLocaleString()}.
          </p>
        )}
      </form>
    </div>
  );
}
