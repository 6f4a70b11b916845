"use client";
// Brings the cited passage into view and moves focus to it when the viewer opens, so a keyboard or
// screen-reader user starts at the passage the citation named.
import { useEffect } from "react";

export function PassageFocus({ targetId }: { targetId: string }) {
  useEffect(() => {
    const mark = document.getElementById(targetId);
    mark?.scrollIntoView({ block: "center" });
    mark?.focus({ preventScroll: true });
  }, [targetId]);
  return null;
}
