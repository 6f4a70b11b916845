// The retrieval bench's scores: whether a returned passage answers a question (its document, and the
// answer's phrase in its text), the rank of the first one that does, and over all questions recall@k
// (the share answered within the first k passages) and the mean reciprocal rank (1 / that rank, 0 when
// none of the returned passages answers).

/** A question with a known answer: the document it is in and a short phrase of the passage that answers it. */
export type Question = { document: string; question: string; phrase: string };

/** What the metrics need of a returned passage. */
export type Returned = { documentName: string; text: string };

/** Spaces and line breaks as one space, so a phrase cut by a line break in the text still matches. */
const squash = (s: string) => s.replace(/\s+/g, " ").trim().toLowerCase();

/** Whether a passage answers the question: of the right document, with the answer's phrase in its text. */
export function isHit(passage: Returned, q: Pick<Question, "document" | "phrase">): boolean {
  return passage.documentName === q.document && squash(passage.text).includes(squash(q.phrase));
}

/** The rank (from 1) of the first passage that answers, or null when none of them does. */
export function firstHitRank(passages: readonly Returned[], q: Pick<Question, "document" | "phrase">): number | null {
  const i = passages.findIndex((p) => isHit(p, q));
  return i < 0 ? null : i + 1;
}

/** The share of questions whose first answering passage is within the first k (0 for no questions). */
export function recallAtK(ranks: readonly (number | null)[], k: number): number {
  if (ranks.length === 0) return 0;
  return ranks.filter((r) => r !== null && r <= k).length / ranks.length;
}

/** The mean over questions of 1 / rank of the first answering passage, 0 for a question none answers. */
export function meanReciprocalRank(ranks: readonly (number | null)[]): number {
  if (ranks.length === 0) return 0;
  return ranks.reduce<number>((sum, r) => sum + (r === null ? 0 : 1 / r), 0) / ranks.length;
}
