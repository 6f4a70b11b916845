"use client";
// Where the message list is scrolled: it opens at the newest message, follows an answer as it streams
// while the reader is at the bottom, and stops following once they scroll up (use-stick-to-bottom),
// when "Jump to latest" is offered. Following is instant, not an animation: a block that grows moves
// what is under it once, not for the length of a glide (a button a person aims at stays where it is
// between aiming and clicking, and nothing moves for those who ask for reduced motion). Older messages put in above keep the reader's place: the distance
// from the bottom is kept across the render that adds them.
import { useCallback, useLayoutEffect, useRef } from "react";
import { useStickToBottom } from "use-stick-to-bottom";

export function useChatScroll() {
  const stick = useStickToBottom({ initial: "instant", resize: "instant" });
  const { scrollRef } = stick;
  const fromBottom = useRef<number | undefined>(undefined);

  /** Call before older messages are put in above: the next render keeps what the reader sees in place. */
  const keepPlace = useCallback(() => {
    const el = scrollRef.current;
    if (el) fromBottom.current = el.scrollHeight - el.scrollTop;
  }, [scrollRef]);

  // After every render: put the view back where it was from the bottom, once, when asked to.
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (fromBottom.current === undefined || !el) return;
    el.scrollTop = el.scrollHeight - fromBottom.current;
    fromBottom.current = undefined;
  });

  return { scrollRef: stick.scrollRef, contentRef: stick.contentRef, isAtBottom: stick.isAtBottom, scrollToBottom: stick.scrollToBottom, keepPlace };
}
