// A chat's title. At its first message it is the question's first words (`titleFrom`: the first line,
// whitespace collapsed, cut at a word boundary), instantly and for free. Once the first answer is
// in, the chat's model is asked once for a short title (`modelTitle`: no tools, no retries, a few
// tokens, TITLE_TIMEOUT_MS at most); an answer that fails, times out, calls a tool or is not a short
// title (`cleanTitle`) leaves the first words. A person's rename always wins: the generated title
// only replaces the first-words title it was made for (`storeModelTitle`).
import type { LanguageModelV4 } from "@ai-sdk/provider";
import { generateText } from "ai";
import { db } from "../db/client";

export function titleFrom(text: string, max = 60): string {
  const line =
    text
      .trim()
      .split(/\r?\n/)
      .find((l) => l.trim()) ?? "";
  const flat = line
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^#+\s*/, "");
  if (!flat) return "Untitled chat";
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max);
  const space = cut.lastIndexOf(" ");
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,.;:!?-]+$/, "")}…`;
}

/** How long the title call may take; it starts with the answer, whose end waits for it (turn-stream.ts). */
export const TITLE_TIMEOUT_MS = 8_000;
/** The title call's system message starts with this (it is how the e2e upstream recognises it). */
export const TITLE_INSTRUCTION = "You name chat conversations.";
const MAX_TITLE_CHARS = 60;
const MAX_TITLE_WORDS = 8;

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…` : text);

/**
 * A short title for a conversation as the model writes it, or undefined when the answer is not one:
 * empty, several lines of prose, more than a sentence, longer than 60 characters or 8 words.
 */
export function cleanTitle(raw: string): string | undefined {
  const lines = raw
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  if (lines.length !== 1) return undefined;
  const title = lines[0]
    .replace(/^(title|chat title)\s*:\s*/i, "")
    .replace(/^[#*_`"'“”‘’\s]+|[*_`"'“”‘’\s]+$/g, "")
    .replace(/[.!,;:\s]+$/, "")
    .replace(/\s+/g, " ");
  if (!title || title.length > MAX_TITLE_CHARS || title.split(" ").length > MAX_TITLE_WORDS) return undefined;
  if (/[.!?]\s+\S/.test(title)) return undefined; // more than one sentence: an answer, not a title
  return title;
}

/** Asks `model` for a title of a chat from its first question; undefined when it cannot give one (see the header). */
export async function modelTitle(model: LanguageModelV4, question: string, timeoutMs = TITLE_TIMEOUT_MS): Promise<string | undefined> {
  try {
    const result = await generateText({
      model,
      instructions:
        `${TITLE_INSTRUCTION} Reply with a title of 2 to 6 words for the conversation that starts with the ` +
        `message below: plain text, no quotes, no punctuation at the end, in the language of the message.\n\n` +
        `User: ${clip(question, 1_000)}`,
      prompt: "Write the title.",
      maxOutputTokens: 40,
      maxRetries: 0,
      abortSignal: AbortSignal.timeout(timeoutMs),
    });
    if (result.toolCalls.length || result.finishReason === "tool-calls") return undefined;
    return cleanTitle(result.text);
  } catch {
    return undefined;
  }
}

/** Stores the model's title unless the chat's title changed since the first words were set; whether it did. */
export async function storeModelTitle(chatId: string, firstTitle: string, title: string): Promise<boolean> {
  const prisma = await db();
  const res = await prisma.chat.updateMany({ where: { id: chatId, title: firstTitle }, data: { title } });
  return res.count === 1;
}
