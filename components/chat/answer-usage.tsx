// Usage under an answer: a details line with its tokens (input with cached, output with reasoning) and
// its cost; and the chat's running total over the answers shown.
import type { ParleyUIMessage } from "@/lib/messages/message-types";
import { formatCost, formatTokens } from "@/lib/format/usage";

type Usage = NonNullable<NonNullable<ParleyUIMessage["metadata"]>["usage"]>;

export function AnswerUsage({ usage }: { usage: Usage | undefined }) {
  if (!usage || (usage.inputTokens == null && usage.outputTokens == null)) return null;
  const cached = usage.cachedInputTokens ? ` (${formatTokens(usage.cachedInputTokens)} cached)` : "";
  const reasoning = usage.reasoningTokens ? ` (${formatTokens(usage.reasoningTokens)} reasoning)` : "";
  return (
    <p className="text-xs text-subtle" data-testid="answer-usage">
      <span className="sr-only">Usage: </span>
      {formatTokens(usage.inputTokens)} input tokens{cached} · {formatTokens(usage.outputTokens)} output tokens{reasoning}
      {usage.cost != null && <> · {formatCost(usage.cost)}</>}
    </p>
  );
}

export function ChatUsageTotal({ messages }: { messages: ParleyUIMessage[] }) {
  let tokens = 0;
  let cost: number | null = null;
  for (const m of messages) {
    const u = m.metadata?.usage;
    if (!u) continue;
    tokens += (u.inputTokens ?? 0) + (u.outputTokens ?? 0);
    if (u.cost != null) cost = (cost ?? 0) + u.cost;
  }
  if (!tokens) return null;
  return (
    <p className="self-center text-xs text-subtle" data-testid="chat-usage-total">
      This chat so far: {formatTokens(tokens)} tokens{cost != null && <> · {formatCost(cost)}</>}
    </p>
  );
}
