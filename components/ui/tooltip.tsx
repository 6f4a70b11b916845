"use client";
// Tooltip on Radix: shown on hover and on keyboard focus, dismissed with Escape. The trigger keeps its
// own accessible name; the tooltip adds a description.
import { Tooltip as TooltipPrimitive } from "radix-ui";
import { cn } from "./cn";

export function Tooltip({
  content,
  children,
  side = "top",
  className,
}: {
  content: React.ReactNode;
  children: React.ReactElement;
  side?: "top" | "bottom" | "left" | "right";
  className?: string;
}) {
  return (
    <TooltipPrimitive.Provider delayDuration={300}>
      <TooltipPrimitive.Root>
        <TooltipPrimitive.Trigger asChild>{children}</TooltipPrimitive.Trigger>
        <TooltipPrimitive.Portal>
          <TooltipPrimitive.Content
            side={side}
            sideOffset={4}
            className={cn("z-50 max-w-64 rounded-md border border-line-overlay bg-surface px-2 py-1 text-xs text-strong shadow-md", className)}
          >
            {content}
          </TooltipPrimitive.Content>
        </TooltipPrimitive.Portal>
      </TooltipPrimitive.Root>
    </TooltipPrimitive.Provider>
  );
}
