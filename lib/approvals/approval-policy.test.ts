import { describe, expect, it } from "vitest";
import { approverFor, canAlwaysAllow, effectivePolicy, explainPolicy, policyFromAnnotations, requiresApproval } from "./approval-policy";

describe("approval policy", () => {
  it("new tools ask: a read-only hint runs without asking only on a server the admin trusts", () => {
    expect(policyFromAnnotations({ readOnlyHint: true })).toBe("ask");
    expect(policyFromAnnotations({ readOnlyHint: true }, true)).toBe("auto");
    expect(policyFromAnnotations({ readOnlyHint: false }, true)).toBe("ask");
    expect(policyFromAnnotations(null, true)).toBe("ask");
  });

  it("the tool's own policy wins over the server default, which wins over the hints", () => {
    expect(effectivePolicy({ annotations: { readOnlyHint: true } })).toBe("ask");
    expect(effectivePolicy({ annotations: { readOnlyHint: true }, trustReadOnly: true })).toBe("auto");
    expect(effectivePolicy({ serverDefault: "ask", annotations: { readOnlyHint: true }, trustReadOnly: true })).toBe("ask");
    expect(effectivePolicy({ toolPolicy: "deny", serverDefault: "auto" })).toBe("deny");
    expect(effectivePolicy({ toolPolicy: "admin", serverDefault: "auto" })).toBe("admin");
  });

  it("says why", () => {
    expect(explainPolicy({ toolPolicy: "admin" })).toEqual({ policy: "admin", why: "Set for this tool." });
    expect(explainPolicy({ serverDefault: "auto" }).why).toBe("The server's default.");
    expect(explainPolicy({ annotations: { readOnlyHint: true } }).why).toMatch(/only a hint/);
    expect(explainPolicy({ annotations: { readOnlyHint: true }, trustReadOnly: true }).policy).toBe("auto");
  });

  it("a member's allowances lift `ask`, never `admin`", () => {
    expect(approverFor("ask", false)).toBe("member");
    expect(approverFor("ask", true)).toBe("none");
    expect(approverFor("admin", true)).toBe("admin");
    expect(approverFor("auto", false)).toBe("none");
    expect(requiresApproval("admin", true)).toBe(true);
    expect(() => requiresApproval("deny", true)).toThrow();
    expect(canAlwaysAllow("ask")).toBe(true);
    expect(canAlwaysAllow("admin")).toBe(false);
    expect(canAlwaysAllow("deny")).toBe(false);
    expect(canAlwaysAllow("auto")).toBe(false);
  });
});
