// What a tool card shows about its approval beyond the AI SDK's { id, approved, reason }: who must
// decide (the member or an admin), the rule that asked, the deadline, who decided and when, and the
// model's input when a person edited it. Read from the block's columns into the part's `approval`;
// never stored from a part (parts.ts leaves these keys out), so a client cannot forge them.
import type { Block } from "../db/generated/client";
import type { ParleyPart } from "./message-types";

export type ApprovalDetails = {
  by?: "member" | "admin";
  rule?: string;
  deadline?: string;
  /** The name of the person who decided; absent for a time limit. */
  decidedBy?: string;
  decidedAt?: string;
  /** The model's input, when a person edited it before approving (the part's `input` is what ran). */
  original?: unknown;
};

export const DETAIL_KEYS = ["by", "rule", "deadline", "decidedBy", "decidedAt", "original"] as const;

export type BlockWithDecider = Pick<Block, "approvalBy" | "approvalRule" | "approvalDeadline" | "decidedAt" | "originalInput"> & {
  decidedBy?: { name: string } | null;
};

/** The key of a tool part that names the rule that let the call run without asking (from the block). */
export const AUTO_RULE_KEY = "autoRule";

/**
 * The part with its approval details from the block; a call a rule ran without asking gets the rule's
 * label as `autoRule`. Other parts without an approval are returned as they are.
 */
export function withApprovalDetails(part: ParleyPart, block: BlockWithDecider): ParleyPart {
  const approval = (part as { approval?: Record<string, unknown> }).approval;
  if (!approval) return block.approvalBy === "auto" && block.approvalRule ? ({ ...part, [AUTO_RULE_KEY]: block.approvalRule } as unknown as ParleyPart) : part;
  const details: ApprovalDetails = {};
  if (block.approvalBy === "member" || block.approvalBy === "admin") details.by = block.approvalBy;
  if (block.approvalRule) details.rule = block.approvalRule;
  if (block.approvalDeadline) details.deadline = block.approvalDeadline.toISOString();
  if (block.decidedAt) details.decidedAt = block.decidedAt.toISOString();
  if (block.decidedBy?.name) details.decidedBy = block.decidedBy.name;
  if (block.originalInput !== null && block.originalInput !== undefined) details.original = block.originalInput;
  return { ...part, approval: { ...approval, ...details } } as ParleyPart;
}
