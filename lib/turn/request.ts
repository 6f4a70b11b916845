// The body of POST /api/chat: only what is new (the user's message or an edit of one, a regenerate, a
// continue after Stop, or decisions on calls waiting for approval: `{approvalId, approved, reason}`
// and nothing else), never history; and how often a user may send one (PARLEY_CHAT_RATE_LIMIT messages
// a minute; 429 past it). Decisions on approval cards are not messages: they have a limit of their own
// (DECISION_RATE_LIMIT a minute), so quick Approve clicks are never refused as messages sent too fast. The first message of a chat that is still a draft says so (`newChat`) and
// brings the tools chosen for it.
import { z } from "zod";
import { config } from "../config";
import { AppError } from "../errors";
import { rateLimiter, type RateLimiter } from "../security/rate-limit";
import { toolSelectionSchema } from "../tools/selection";
import { knowledgeChoiceSchema } from "../knowledge/chat-bases";
import { idField } from "../validation";
import { decisionSchema } from "../approvals/approvals";

export function maxMessageChars(): number {
  return config().PARLEY_MAX_MESSAGE_CHARS;
}

const KEY = Symbol.for("parley.chatRateLimit");
const holder = globalThis as { [KEY]?: RateLimiter };

export function chatRateLimit(): RateLimiter {
  return (holder[KEY] ??= rateLimiter({
    name: "chat",
    limit: config().PARLEY_CHAT_RATE_LIMIT,
    windowMs: 60_000,
    message: "You are sending messages too fast. Wait a moment and try again.",
  }));
}

/** Decisions (Approve, Deny, Edit and approve) a user may send in a minute. */
export const DECISION_RATE_LIMIT = 300;
const DECISIONS_KEY = Symbol.for("parley.decisionRateLimit");
const decisionHolder = globalThis as { [DECISIONS_KEY]?: RateLimiter };

export function decisionRateLimit(): RateLimiter {
  return (decisionHolder[DECISIONS_KEY] ??= rateLimiter({
    name: "decisions",
    limit: DECISION_RATE_LIMIT,
    windowMs: 60_000,
    message: "You are deciding tool calls too fast. Wait a moment and try again.",
  }));
}

/** The limit a request counts against: its own for decisions, the message limit for everything else. */
export const rateLimitFor = (req: Pick<ChatRequest, "approvals">): RateLimiter => (req.approvals ? decisionRateLimit() : chatRateLimit());

const textPart = z.object({ type: z.literal("text"), text: z.string() });

export const chatRequestSchema = z
  .object({
    id: z.string().min(1).max(64),
    message: z
      .object({
        id: z.string().max(200).optional(),
        role: z.literal("user"),
        parts: z.array(textPart).min(1).max(50),
      })
      .optional(),
    trigger: z.enum(["submit-message", "regenerate-message"]).default("submit-message"),
    /** Regenerate: the answer to write a new version of. */
    messageId: z.string().min(1).max(200).optional(),
    /** With `message`: the question it is a new version of (edit and resend). */
    editOf: z.string().min(1).max(200).optional(),
    /** Continue after Stop: the stopped answer. */
    continueOf: z.string().min(1).max(200).optional(),
    modelId: z.string().min(1).max(64).optional(),
    approvals: z.array(decisionSchema.strict()).min(1).max(50).optional(),
    /** The chat is a draft in the browser: the message stores it (with `tools`) unless it exists. */
    newChat: z.boolean().optional(),
    tools: toolSelectionSchema.optional(),
    /** With `newChat`: the knowledge bases the chat searches, and whether before each answer (lib/knowledge). */
    knowledge: knowledgeChoiceSchema.optional(),
    /** With `newChat`: the project the chat starts in (lib/projects; its defaults and instructions apply). */
    projectId: idField.optional(),
    /** With `message` (not an edit): ids of the caller's uploaded, unsent attachments (lib/attachments). */
    attachments: z.array(idField).min(1).max(10).optional(),
    /** MCP resources attached to the message (read on the server when it is sent). */
    resources: z
      .array(z.object({ serverId: idField, uri: z.string().min(1).max(2000) }).strict())
      .max(5)
      .optional(),
  })
  .refine(
    (b) =>
      b.trigger === "submit-message"
        ? [b.message, b.approvals, b.continueOf].filter(Boolean).length === 1 &&
          !b.messageId &&
          (!b.editOf || !!b.message) &&
          (!b.attachments || (!!b.message && !b.editOf))
        : !!b.messageId && !b.approvals && !b.message && !b.editOf && !b.continueOf,
    {
      message: "Send a message (or an edit of one), decisions on waiting tool calls, the id of the answer to regenerate, or of the stopped answer to continue.",
    },
  );

export type ChatRequest = z.infer<typeof chatRequestSchema>;

/** The user's text, or a 413 when it is over the limit; 400 when empty. */
export function messageText(req: ChatRequest): string | undefined {
  if (!req.message) return undefined;
  const text = req.message.parts
    .map((p) => p.text)
    .join("\n")
    .trim();
  const max = maxMessageChars();
  if (text.length > max) throw new AppError("TooLarge", 413, `The message is longer than ${max} characters.`);
  if (!text) throw new AppError("InvalidInput", 400, "The message is empty.");
  return text;
}

/** Byte cap for the request body: room for the longest message in UTF-8 plus the envelope. */
export function chatBodyLimit(): number {
  return maxMessageChars() * 4 + 16 * 1024;
}
