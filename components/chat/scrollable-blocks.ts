"use client";
// Code blocks and tables in rendered markdown scroll sideways when they are wide; a keyboard user must
// be able to reach and scroll them too. Streamdown renders them itself, so this names each one and
// makes it focusable (tabIndex 0, role region), also as it re-renders while an answer streams in.
import { useEffect, type RefObject } from "react";

const SCROLLERS: [selector: string, label: (el: HTMLElement) => string][] = [
  ['[data-streamdown="code-block-body"]', (el) => (el.dataset.language ? `Code (${el.dataset.language})` : "Code")],
  ['[data-streamdown="table-wrapper"]', () => "Table"],
];

function mark(root: HTMLElement) {
  for (const [selector, label] of SCROLLERS) {
    for (const el of root.querySelectorAll<HTMLElement>(selector)) {
      if (el.tabIndex === 0 && el.getAttribute("role") === "region") continue;
      el.tabIndex = 0;
      el.setAttribute("role", "region");
      el.setAttribute("aria-label", label(el));
    }
  }
}

export function useKeyboardScrollable(ref: RefObject<HTMLElement | null>) {
  useEffect(() => {
    const root = ref.current;
    if (!root) return;
    mark(root);
    const observer = new MutationObserver(() => mark(root));
    observer.observe(root, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [ref]);
}
