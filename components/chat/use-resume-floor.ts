"use client";
// A page rendered while a turn runs shows the answer as stored so far, then resumes the turn's stream.
// That stream is a replay from the answer's first words: the AI SDK starts the message over, so for a
// moment the answer would blank and grow again. Until the replay has caught up with what the page
// was rendered with, the rendered answer is shown in its place (the floor), then the floor retires.
import { useState } from "react";
import { isToolUIPart } from "ai";
import type { ParleyUIMessage } from "@/lib/messages/message-types";

/** How much of an answer a person sees: its text (and reasoning) and its tool blocks. */
function shownOf(m: ParleyUIMessage): { text: number; tools: number } {
  let text = 0;
  let tools = 0;
  for (const p of m.parts) {
    if (p.type === "text" || p.type === "reasoning") text += p.text.length;
    else if (isToolUIPart(p)) tools++;
  }
  return { text, tools };
}

/** Whether a live answer shows at least as much as the floor did. */
export function caughtUp(live: ParleyUIMessage, floor: ParleyUIMessage): boolean {
  const [a, b] = [shownOf(live), shownOf(floor)];
  return a.text >= b.text && a.tools >= b.tools;
}

/** The answer a list ends with, if it ends with one: the floor of a stream that resumes it. */
export function answerAtEnd(messages: ParleyUIMessage[] | undefined): ParleyUIMessage | undefined {
  const last = messages?.at(-1);
  return last?.role === "assistant" ? last : undefined;
}

/**
 * What to render with a floor: `messages`, with the floor in place of its live copy while that copy is
 * behind it; `retired` once the live copy has caught up or the answer has left the list (a switched version).
 */
export function withFloor(messages: ParleyUIMessage[], floor: ParleyUIMessage): { shown: ParleyUIMessage[]; retired: boolean } {
  const at = messages.findIndex((m) => m.id === floor.id);
  const live = messages[at];
  if (live === floor) return { shown: messages, retired: false };
  if (!live || caughtUp(live, floor)) return { shown: messages, retired: true };
  return { shown: messages.with(at, floor), retired: false };
}

/** The messages to render while a resumed turn replays its stream (see the header). */
export function useResumeFloor(messages: ParleyUIMessage[], initialMessages: ParleyUIMessage[], resume: boolean): ParleyUIMessage[] {
  const [floor, setFloor] = useState(() => (resume ? answerAtEnd(initialMessages) : undefined));
  if (!floor) return messages;
  const { shown, retired } = withFloor(messages, floor);
  // Set during render, as React advises for state that follows the props.
  if (retired) setFloor(undefined);
  return shown;
}
