"use client";
// A page rendered while a turn runs shows the answer as stored so far, then resumes the turn's stream.
// That stream is a replay from the answer's first words: the AI SDK starts the message over, so for a
// moment the answer would blank and grow again. Until the replay has caught up with what the page
// was rendered with, the rendered answer is shown in its place (the floor), then the floor retires.
import { useState } from "react";
import type { ParleyUIMessage } from "@/lib/messages/message-types";

type Shown = { text: number; tools: number };

/** How much of an answer a person sees: its text (and reasoning) and its tool blocks. */
function shownOf(m: ParleyUIMessage): Shown {
  let text = 0;
  let tools = 0;
  for (const p of m.parts) {
    if (p.type === "text" || p.type === "reasoning") text += p.text.length;
    else if (p.type.startsWith("tool-") || p.type === "dynamic-tool") tools++;
  }
  return { text, tools };
}

/** Whether a live answer shows at least as much as the floor did. */
export function caughtUp(live: ParleyUIMessage, floor: ParleyUIMessage): boolean {
  const [a, b] = [shownOf(live), shownOf(floor)];
  return a.text >= b.text && a.tools >= b.tools;
}

/**
 * The messages to render: `messages`, but with the answer the page was rendered with in place of its
 * live copy while a resumed replay is behind it.
 */
export function withFloor(messages: ParleyUIMessage[], floor: ParleyUIMessage | undefined): ParleyUIMessage[] {
  if (!floor) return messages;
  const at = messages.findIndex((m) => m.id === floor.id);
  if (at === -1 || messages[at] === floor || caughtUp(messages[at], floor)) return messages;
  return messages.with(at, floor);
}

/** The messages to render while a resumed turn replays its stream (see the header). */
export function useResumeFloor(messages: ParleyUIMessage[], initialMessages: ParleyUIMessage[], resume: boolean): ParleyUIMessage[] {
  const [floor, setFloor] = useState(() => {
    const last = initialMessages.at(-1);
    return resume && last?.role === "assistant" ? last : undefined;
  });
  const live = floor && messages.find((m) => m.id === floor.id);
  // Retired once the replay has caught up, or once the answer has left the list (a switched version):
  // set during render, as React advises for state that follows the props.
  if (floor !== undefined && (live === undefined || (live !== floor && caughtUp(live, floor)))) {
    setFloor(undefined);
    return messages;
  }
  return withFloor(messages, floor);
}
