"use client";
// A picker of the composer's toolbar (Tools, Knowledge): a small button that opens a Radix popover
// anchored above the whole composer (so on a phone it never covers the message box), with the picker's
// error on top. Focus moves in on open; Escape or closing returns it to the message box.
import { useMemo, useRef } from "react";
import { Button } from "../ui/button";
import { Popover, PopoverAnchor, PopoverContent, PopoverTrigger } from "../ui/popover";
import { focusComposer } from "../shared/focus-composer";

export function ComposerPopover({
  open,
  onOpenChange,
  label,
  triggerLabel,
  icon,
  title,
  disabled,
  error,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The button's text, e.g. "Tools (3)". */
  label: string;
  /** The button's accessible name when it says more than its text. */
  triggerLabel?: string;
  icon: React.ReactNode;
  /** The popover's accessible name, e.g. "Tools for this chat". */
  title: string;
  disabled?: boolean;
  error?: string;
  children: React.ReactNode;
}) {
  const trigger = useRef<HTMLButtonElement>(null);
  // The whole composer (the trigger's form), so the popover opens above the message box.
  const anchor = useMemo(
    () => ({ current: { getBoundingClientRect: () => (trigger.current?.closest("form") ?? trigger.current)?.getBoundingClientRect() ?? new DOMRect() } }),
    [],
  );
  return (
    <Popover open={open} onOpenChange={onOpenChange}>
      <PopoverAnchor virtualRef={anchor} />
      <PopoverTrigger asChild>
        <Button ref={trigger} variant="secondary" size="xs" disabled={disabled} aria-label={triggerLabel ?? label}>
          {icon} {label}
        </Button>
      </PopoverTrigger>
      <PopoverContent
        side="top"
        aria-label={title}
        className="max-h-96 w-[min(20rem,calc(100vw-1rem))]"
        onCloseAutoFocus={(e) => {
          e.preventDefault();
          focusComposer();
        }}
      >
        {error && (
          <p role="alert" className="mb-2 text-xs text-danger">
            {error}
          </p>
        )}
        {children}
      </PopoverContent>
    </Popover>
  );
}
