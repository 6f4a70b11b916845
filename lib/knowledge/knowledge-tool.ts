// The knowledge-search tool a chat with knowledge bases offers its model: a call is a tool block like any
// other (its query as input, the passages found as result, approval by the team's policy for it, an
// audit event per search). Passages are numbered as the message's citations when found (`cite`), so the
// model is told the number to cite each by, and the answer's sources list and inline marks agree.
import type { Tool } from "ai";
import { ToolError } from "../tools/error-codes";
import { abortedError, timeoutError, wrapTool, type NeedsApproval } from "../tools/wrap";
import type { Caller } from "./access";
import type { SearchableBase } from "./chat-bases";
import { DEFAULT_PASSAGES, MAX_TOOL_PASSAGES, passageCitation, retrievePassages } from "./retrieve";
import { knowledgeModelOutput, type KnowledgeResult } from "../format/knowledge-result";
import type { Passage } from "./search";

/** The tool's name as the model and the stored blocks know it. */
export const KNOWLEDGE_TOOL = "knowledge_search";
const TIMEOUT_MS = 30_000;
const MAX_QUERY_CHARS = 1_000;

export type KnowledgeToolOptions = {
  ctx: Caller;
  bases: readonly SearchableBase[];
  /** Numbers the passages as the message's citations; each one's number. */
  cite: (citations: ReturnType<typeof passageCitation>[]) => number[];
  /** After each search: what was asked and how many passages came back (the audit event). */
  onSearch?: (search: { toolCallId: string; query: string; passages: number }) => void;
  needsApproval?: NeedsApproval;
};

function readQuery(input: Record<string, unknown>): { query: string; limit: number } {
  const query = typeof input.query === "string" ? input.query.trim() : "";
  if (!query) throw new ToolError("InvalidArgs", "Give `query`: what to look for in the documents.");
  if (query.length > MAX_QUERY_CHARS) throw new ToolError("InvalidArgs", `\`query\` is at most ${MAX_QUERY_CHARS} characters.`);
  const asked = input.limit;
  if (asked !== undefined && (typeof asked !== "number" || !Number.isInteger(asked) || asked < 1 || asked > MAX_TOOL_PASSAGES)) {
    throw new ToolError("InvalidArgs", `\`limit\` is a whole number from 1 to ${MAX_TOOL_PASSAGES}.`);
  }
  return { query, limit: (asked as number | undefined) ?? DEFAULT_PASSAGES };
}

/** Numbers passages as citations and shapes them for the block. */
export function citedPassages(passages: Passage[], cite: KnowledgeToolOptions["cite"]): (Passage & { n: number; url: string })[] {
  const citations = passages.map(passageCitation);
  const numbers = cite(citations);
  return passages.map((p, i) => ({ ...p, n: numbers[i], url: citations[i].url }));
}

export function knowledgeSearchTool(opts: KnowledgeToolOptions): Tool {
  const names = opts.bases.map((b) => `“${b.name}”`).join(", ");
  return wrapTool<KnowledgeResult>({
    title: "Search knowledge",
    description: `Searches the team's documents in the knowledge bases ${names} and returns the passages that best match, each with a number to cite it by. Use it for questions the documents may answer.`,
    inputSchema: {
      type: "object",
      properties: {
        query: { type: "string", description: "What to look for: a question or key words." },
        limit: { type: "integer", minimum: 1, maximum: MAX_TOOL_PASSAGES, description: `How many passages (default ${DEFAULT_PASSAGES}).` },
      },
      required: ["query"],
      additionalProperties: false,
    },
    metadata: { source: "knowledge", toolName: "Search knowledge" },
    timeoutMs: TIMEOUT_MS,
    needsApproval: opts.needsApproval,
    run: async (input, { signal, toolCallId }) => {
      const { query, limit } = readQuery(input);
      const found = await retrievePassages(opts.ctx, opts.bases, query, limit, signal);
      const passages = citedPassages(found.passages, opts.cite);
      opts.onSearch?.({ toolCallId, query, passages: passages.length });
      return {
        knowledge: true,
        query,
        passages: passages.map((p) => ({
          n: p.n,
          documentId: p.documentId,
          documentName: p.documentName,
          page: p.page,
          headingPath: p.headingPath,
          url: p.url,
          text: p.text,
        })),
        ...(found.degraded ? { degraded: found.degraded } : {}),
      };
    },
    classify: (err, c) => {
      if (err instanceof ToolError) return err;
      if (c.aborted) return abortedError();
      if (c.timedOut) return timeoutError(c.timeoutMs);
      return new ToolError("ToolFailed", `The knowledge search failed: ${(err as Error).message}`);
    },
    modelOutput: knowledgeModelOutput,
  });
}
