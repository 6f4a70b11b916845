// A knowledge search's result as the server and the browser share it: its shape (the tool block's
// output), how to tell one apart from other tool outputs, and what the model reads of its passages
// (lib/knowledge/knowledge-tool.ts in a turn, lib/chat/history.ts in later turns).

/** A passage found, as the tool block shows it: its citation number, place and text. */
export type FoundPassage = { n: number; documentId: string; documentName: string; page: number | null; headingPath: string[]; url: string; text: string };

/** A knowledge search's result: the query and the passages found (a note when it searched by words only). */
export type KnowledgeResult = { knowledge: true; query: string; passages: FoundPassage[]; degraded?: string };

/** Whether a tool output is a knowledge search's result. */
export function isKnowledgeResult(output: unknown): output is KnowledgeResult {
  const o = output as Partial<KnowledgeResult> | null;
  return !!o && typeof o === "object" && o.knowledge === true && typeof o.query === "string" && Array.isArray(o.passages);
}

/** A passage's place as a person reads it: "handbook.pdf, page 3". */
export function passagePlace(p: { documentName: string; page: number | null }): string {
  return p.page ? `${p.documentName}, page ${p.page}` : p.documentName;
}

type ModelPassage = { n: number; documentName: string; page: number | null; headingPath: string[]; text: string };

/** What the model reads of passages: each with its citation number, place, heading path and text. */
export function passagesForModel(passages: readonly ModelPassage[], degraded?: string): string {
  if (!passages.length) return `${degraded ? `${degraded}\n` : ""}No passage of the knowledge bases matches.`;
  const blocks = passages.map((p) => {
    const heading = p.headingPath.length ? ` (${p.headingPath.join(" › ")})` : "";
    return `[${p.n}] ${passagePlace(p)}${heading}\n${p.text}`;
  });
  const note = "Cite a passage you use with its number in square brackets, e.g. [1], right after the claim it supports.";
  return [...(degraded ? [degraded] : []), note, ...blocks].join("\n\n");
}

/** What the model reads of a search's result, in the turn and in later turns' history. */
export function knowledgeModelOutput(out: KnowledgeResult) {
  return { type: "text" as const, value: passagesForModel(out.passages, out.degraded) };
}
