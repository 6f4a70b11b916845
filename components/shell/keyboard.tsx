"use client";
// Keyboard help for every signed-in page: skip links (to the message box on a chat, to the page's
// content everywhere) and the shortcuts: "?" opens the list of shortcuts (a dialog), "/" goes to the
// message box; neither fires while a person types in a field.
import { useEffect, useRef, useState } from "react";
import { usePathname } from "next/navigation";
import { COMPOSER_ID } from "../shared/focus-composer";
import { Button } from "../ui/button";
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogTitle } from "../ui/dialog";

export const MAIN_ID = "main-content";

const SHORTCUTS: [keys: string[], what: string][] = [
  [["?"], "Show these shortcuts"],
  [["/"], "Go to the message box"],
  [["Enter"], "Send the message"],
  [["Shift", "Enter"], "New line in the message"],
  [["Esc"], "Close a menu, popover or dialog"],
  [["Tab"], "Next control (the first one on a page skips to its content)"],
];

function typing(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el?.closest) return false;
  return Boolean(el.closest("input, textarea, select, [contenteditable=''], [contenteditable='true']"));
}

function focusById(id: string) {
  const el = document.getElementById(id);
  if (!el) return false;
  el.focus();
  return true;
}

const skipClass =
  "sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-[60] focus:rounded-md focus:bg-surface focus:px-3 focus:py-2 focus:text-sm focus:font-medium focus:text-strong focus:shadow-lg";

export function SkipLinks() {
  const chat = /^\/chat(\/|$)/.test(usePathname());
  const skip = (id: string) => (e: React.MouseEvent) => {
    if (focusById(id)) e.preventDefault();
  };
  return (
    <>
      {chat && (
        <a href={`#${COMPOSER_ID}`} className={skipClass} onClick={skip(COMPOSER_ID)}>
          Skip to message box
        </a>
      )}
      <a href={`#${MAIN_ID}`} className={skipClass} onClick={skip(MAIN_ID)}>
        Skip to content
      </a>
    </>
  );
}

export function ShortcutsHelp() {
  const [open, setOpen] = useState(false);
  // Opened by a key, the dialog has no trigger to return focus to: it goes back where it was.
  const before = useRef<HTMLElement | null>(null);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || typing(e.target)) return;
      if (e.key === "?") {
        e.preventDefault();
        before.current = document.activeElement as HTMLElement | null;
        setOpen(true);
      } else if (e.key === "/" && !document.querySelector("[role=dialog]")) {
        if (focusById(COMPOSER_ID)) e.preventDefault();
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogContent
        onCloseAutoFocus={(e) => {
          if (!before.current?.isConnected) return;
          e.preventDefault();
          before.current.focus();
        }}
      >
        <DialogTitle>Keyboard shortcuts</DialogTitle>
        <DialogDescription>Single-key shortcuts work when you are not typing in a field.</DialogDescription>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
          {SHORTCUTS.map(([keys, what]) => (
            <div key={what} className="contents">
              <dt className="flex gap-1">
                {keys.map((k) => (
                  <kbd key={k} className="rounded border border-dim bg-raised px-1.5 font-mono text-xs">
                    {k}
                  </kbd>
                ))}
              </dt>
              <dd>{what}</dd>
            </div>
          ))}
        </dl>
        <DialogClose asChild>
          <Button variant="secondary" className="self-end">
            Close
          </Button>
        </DialogClose>
      </DialogContent>
    </Dialog>
  );
}
