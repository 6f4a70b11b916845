"use client";
// "Jump to latest": offered over a message list scrolled up from its newest message (use-chat-scroll.ts).
import { ArrowDown } from "lucide-react";
import { Button } from "../ui/button";

export function JumpToLatest({ onJump }: { onJump: () => void }) {
  return (
    <Button variant="secondary" size="sm" onClick={onJump} className="absolute bottom-4 left-1/2 -translate-x-1/2 gap-1 rounded-full shadow-md">
      <ArrowDown className="size-4" aria-hidden /> Jump to latest
    </Button>
  );
}
