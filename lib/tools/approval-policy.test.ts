import { describe, expect, it } from "vitest";
import { canAlwaysAllow, effectivePolicy, policyFromAnnotations, requiresApproval } from "./approval-policy";

describe("approval policy", () => {
  it("new tools default from their annotations: read-only runs, anything else asks", () => {
    expect(policyFromAnnotations({ readOnlyHint: true })).toBe("auto");
    expect(policyFromAnnotations({ readOnlyHint: false })).toBe("ask");
    expect(policyFromAnnotations({})).toBe("ask");
    expect(policyFromAnnotations(null)).toBe("ask");
  });

  it("an admin's per-tool policy beats the server default, which beats the annotations", () => {
    expect(effectivePolicy({ annotations: { readOnlyHint: true } })).toBe("auto");
    expect(effectivePolicy({ serverDefault: "ask", annotations: { readOnlyHint: true } })).toBe("ask");
    expect(effectivePolicy({ toolPolicy: "deny", serverDefault: "auto", annotations: { readOnlyHint: true } })).toBe("deny");
    expect(effectivePolicy({ toolPolicy: "auto", serverDefault: "deny" })).toBe("auto");
  });

  it("always-allow lifts ask only; deny is never offered and cannot be allowed", () => {
    expect(requiresApproval("ask", false)).toBe(true);
    expect(requiresApproval("ask", true)).toBe(false);
    expect(requiresApproval("auto", false)).toBe(false);
    expect(() => requiresApproval("deny", true)).toThrow();
    expect(canAlwaysAllow("ask")).toBe(true);
    expect(canAlwaysAllow("deny")).toBe(false);
    expect(canAlwaysAllow("auto")).toBe(false);
  });
});
