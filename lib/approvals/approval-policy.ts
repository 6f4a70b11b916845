// Which calls need a person, and which person: the policy of a tool is the admin's per-tool override,
// else the server's default, else `ask`. MCP annotations are hints from the server (the spec says so):
// a tool the server marks read-only runs without asking only when an admin opted the server in
// (`trustReadOnly`). `deny` tools are never offered to the model; `admin` calls wait for an admin of
// the team; a member's "always allow" or "allow for this chat" only lifts `ask`.
export type ToolPolicy = "ask" | "auto" | "deny" | "admin";

export type PolicyInput = {
  toolPolicy?: ToolPolicy | null;
  serverDefault?: ToolPolicy | null;
  annotations?: { readOnlyHint?: boolean } | null;
  /** The admin opted the server into "run tools it marks read-only without asking". */
  trustReadOnly?: boolean;
};

export function policyFromAnnotations(annotations?: { readOnlyHint?: boolean } | null, trustReadOnly = false): ToolPolicy {
  return trustReadOnly && annotations?.readOnlyHint === true ? "auto" : "ask";
}

export function effectivePolicy(input: PolicyInput): ToolPolicy {
  return input.toolPolicy ?? input.serverDefault ?? policyFromAnnotations(input.annotations, input.trustReadOnly);
}

/** The effective policy and why it is what it is, in words for the admin page. */
export function explainPolicy(input: PolicyInput): { policy: ToolPolicy; why: string } {
  if (input.toolPolicy) return { policy: input.toolPolicy, why: "Set for this tool." };
  if (input.serverDefault) return { policy: input.serverDefault, why: "The server's default." };
  const readOnly = input.annotations?.readOnlyHint === true;
  if (readOnly && input.trustReadOnly) return { policy: "auto", why: "The server marks it read-only, and this server is trusted to say so." };
  if (readOnly) return { policy: "ask", why: "New tools ask. The server marks it read-only, but that is only a hint (not trusted for this server)." };
  return { policy: "ask", why: "New tools ask." };
}

/** Who must decide a call: nobody (runs at once), the member, or an admin. */
export type Approver = "none" | "member" | "admin";

/** Who decides a call of a tool with this policy, given the member's own allowances (always / this chat). */
export function approverFor(policy: ToolPolicy, memberAllows: boolean): Approver {
  if (policy === "deny") throw new Error("A denied tool must never be offered to the model.");
  if (policy === "admin") return "admin";
  return policy === "ask" && !memberAllows ? "member" : "none";
}

/** Whether a call must wait for a person: only `ask` tools the member has not chosen to allow, and `admin` tools. */
export function requiresApproval(policy: ToolPolicy, alwaysAllow: boolean): boolean {
  return approverFor(policy, alwaysAllow) !== "none";
}

/** Whether "Always allow" (or "Allow for this chat") may be offered for this tool. */
export function canAlwaysAllow(policy: ToolPolicy): boolean {
  return policy === "ask";
}
