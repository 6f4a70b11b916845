"use client";
// Popover on Radix: focus moves into the content on open and back to the trigger on Escape or close.
import { Popover as PopoverPrimitive } from "radix-ui";
import { cn } from "./cn";

export const Popover = PopoverPrimitive.Root;
export const PopoverTrigger = PopoverPrimitive.Trigger;
/** Positions the content against another element than the trigger (e.g. a virtualRef's box). */
export const PopoverAnchor = PopoverPrimitive.Anchor;

export function PopoverContent({ className, sideOffset = 6, align = "start", ...props }: React.ComponentProps<typeof PopoverPrimitive.Content>) {
  return (
    <PopoverPrimitive.Portal>
      <PopoverPrimitive.Content
        sideOffset={sideOffset}
        align={align}
        className={cn(
          "z-50 max-h-(--radix-popover-content-available-height) w-80 overflow-y-auto rounded-lg border border-line-overlay bg-page p-2 text-sm text-strong shadow-lg outline-none",
          className,
        )}
        {...props}
      />
    </PopoverPrimitive.Portal>
  );
}
