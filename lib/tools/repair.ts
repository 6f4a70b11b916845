// Tool-call repair (streamText's repairToolCall): a call with invalid input gets one re-ask for that
// same tool, with the validation error, through a copy of the tool that cannot execute; a call to a
// tool that does not exist is never repaired into another tool — it becomes a NoSuchTool error the
// model and the person see. Nothing executes during repair.
import { generateText, InvalidToolInputError, NoSuchToolError, type LanguageModel, type ToolCallRepairFunction, type ToolSet } from "ai";
import { formatToolError } from "../format/tool-error";

export type RepairEvent = { toolCallId: string; toolName: string; outcome: "repaired" | "unrepaired" | "unknown-tool" };

export function repairToolCall(model: LanguageModel, onRepair?: (e: RepairEvent) => void): ToolCallRepairFunction<ToolSet> {
  return async ({ toolCall, tools, error, messages, instructions, abortSignal }) => {
    if (NoSuchToolError.isInstance(error)) {
      onRepair?.({ toolCallId: toolCall.toolCallId, toolName: toolCall.toolName, outcome: "unknown-tool" });
      return null;
    }
    if (!InvalidToolInputError.isInstance(error)) return null;
    const tool = tools[toolCall.toolName as keyof typeof tools];
    if (!tool) return null;
    // The same tool without `execute`: the model may only propose a corrected call.
    const inert = { [toolCall.toolName]: { description: tool.description, inputSchema: tool.inputSchema } } as ToolSet;
    try {
      const retry = await generateText({
        model,
        // The turn's system prompt: v7 rejects a system message inside `messages`.
        instructions,
        abortSignal,
        messages: [
          ...messages,
          {
            role: "assistant",
            content: [{ type: "tool-call", toolCallId: toolCall.toolCallId, toolName: toolCall.toolName, input: safeJson(toolCall.input) }],
          },
          {
            role: "tool",
            content: [
              {
                type: "tool-result",
                toolCallId: toolCall.toolCallId,
                toolName: toolCall.toolName,
                output: { type: "error-text", value: formatToolError("InvalidArgs", `${error.message} Call ${toolCall.toolName} again with valid arguments.`) },
              },
            ],
          },
        ],
        tools: inert,
        toolChoice: { type: "tool", toolName: toolCall.toolName },
        maxRetries: 0,
      });
      const fixed = retry.toolCalls.find((c) => c.toolName === toolCall.toolName);
      onRepair?.({ toolCallId: toolCall.toolCallId, toolName: toolCall.toolName, outcome: fixed ? "repaired" : "unrepaired" });
      return fixed ? { ...toolCall, input: JSON.stringify(fixed.input) } : null;
    } catch {
      onRepair?.({ toolCallId: toolCall.toolCallId, toolName: toolCall.toolName, outcome: "unrepaired" });
      return null;
    }
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * What the person sees for a call the model got wrong and that could not be repaired. The AI SDK
 * hands tool errors over as the error or, for invalid calls, as its message text.
 */
export function invalidCallText(err: unknown): string | undefined {
  if (NoSuchToolError.isInstance(err)) {
    return formatToolError(
      "NoSuchTool",
      `The model called "${err.toolName}", which is not available here. Available: ${(err.availableTools ?? []).join(", ") || "none"}.`,
    );
  }
  if (InvalidToolInputError.isInstance(err)) return formatToolError("InvalidArgs", `The model's arguments for ${err.toolName} were invalid: ${err.message}`);
  const text = typeof err === "string" ? err : undefined;
  const unknown = text && /unavailable tool '([^']+)'\.\s*(?:Available tools: (.*)\.)?/.exec(text);
  if (unknown) return formatToolError("NoSuchTool", `The model called "${unknown[1]}", which is not available here. Available: ${unknown[2] || "none"}.`);
  const invalid = text && /^Invalid input for tool ([^:]+): ([\s\S]*)$/.exec(text);
  if (invalid) return formatToolError("InvalidArgs", `The model's arguments for ${invalid[1]} were invalid: ${invalid[2]}`);
  return undefined;
}
