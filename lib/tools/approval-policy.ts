// Which calls need a person: the policy of a tool is the admin's per-tool override, else the
// server's default, else what the tool's MCP annotations suggest (read-only -> auto, otherwise ask).
// `deny` tools are never offered to the model; a member's "always allow" only lifts `ask`.
export type ToolPolicy = "ask" | "auto" | "deny";

export type PolicyInput = {
  toolPolicy?: ToolPolicy | null;
  serverDefault?: ToolPolicy | null;
  annotations?: { readOnlyHint?: boolean } | null;
};

export function policyFromAnnotations(annotations?: { readOnlyHint?: boolean } | null): ToolPolicy {
  return annotations?.readOnlyHint === true ? "auto" : "ask";
}

export function effectivePolicy(input: PolicyInput): ToolPolicy {
  return input.toolPolicy ?? input.serverDefault ?? policyFromAnnotations(input.annotations);
}

/** Whether a call must wait for a person: only `ask` tools the member has not chosen to always allow. */
export function requiresApproval(policy: ToolPolicy, alwaysAllow: boolean): boolean {
  if (policy === "deny") throw new Error("A denied tool must never be offered to the model.");
  return policy === "ask" && !alwaysAllow;
}

/** Whether "Always allow" may be offered for this tool. */
export function canAlwaysAllow(policy: ToolPolicy): boolean {
  return policy === "ask";
}
