import { describe, expect, it } from "vitest";
import { firstMatch, readRules, ruleLabel, ruleMatches, rulesSchema, type ApprovalRule } from "./approval-rules";

const rule = (r: ApprovalRule) => r;

describe("rules on arguments", () => {
  it("pattern: matches and does not match (ask when path is outside /srv/shared)", () => {
    const outside = rule({ field: "path", op: "not-matches", value: "^/srv/shared/", then: "ask" });
    expect(ruleMatches(outside, { path: "/etc/passwd" })).toBe(true);
    expect(ruleMatches(outside, { path: "/srv/shared/a.txt" })).toBe(false);
    expect(ruleMatches(rule({ field: "path", op: "matches", value: "\\.env$", then: "admin" }), { path: "app/.env" })).toBe(true);
  });

  it("in a list, and not in it", () => {
    const envs = rule({ field: "env", op: "in", value: ["prod", "staging"], then: "admin" });
    expect(ruleMatches(envs, { env: "prod" })).toBe(true);
    expect(ruleMatches(envs, { env: "dev" })).toBe(false);
    expect(ruleMatches(rule({ field: "env", op: "not-in", value: ["prod", "staging"], then: "admin" }), { env: "dev" })).toBe(true);
  });

  it("above and below a number (admin approves when amount > 1000), numbers given as text too", () => {
    const big = rule({ field: "amount", op: "above", value: 1000, then: "admin" });
    expect(ruleMatches(big, { amount: 1500 })).toBe(true);
    expect(ruleMatches(big, { amount: "2000" })).toBe(true);
    expect(ruleMatches(big, { amount: 1000 })).toBe(false);
    expect(ruleMatches(big, { amount: "lots" })).toBe(false);
    expect(ruleMatches(rule({ field: "amount", op: "below", value: 0, then: "ask" }), { amount: -1 })).toBe(true);
  });

  it("nested fields; a missing field never matches, not even a 'not' rule", () => {
    expect(ruleMatches(rule({ field: "options.mode", op: "in", value: ["force"], then: "admin" }), { options: { mode: "force" } })).toBe(true);
    expect(ruleMatches(rule({ field: "path", op: "not-matches", value: "^/srv", then: "ask" }), {})).toBe(false);
    expect(ruleMatches(rule({ field: "constructor", op: "matches", value: ".", then: "ask" }), {})).toBe(false);
  });

  it("the first matching rule decides, and is named", () => {
    const rules = [rule({ field: "amount", op: "above", value: 1000, then: "admin" }), rule({ field: "amount", op: "above", value: 0, then: "auto" })];
    expect(firstMatch(rules, { amount: 5000 })?.rule.then).toBe("admin");
    expect(firstMatch(rules, { amount: 5 })?.rule.then).toBe("auto");
    expect(firstMatch(rules, { amount: -5 })).toBeUndefined();
    expect(ruleLabel(rules[0])).toBe("amount > 1000 → an admin approves");
  });

  it("refuses rules that are not valid, and reads stored junk as no rules", () => {
    expect(rulesSchema.safeParse([{ field: "path", op: "matches", value: "(", then: "ask" }]).success).toBe(false);
    expect(rulesSchema.safeParse([{ field: "a b", op: "in", value: ["x"], then: "ask" }]).success).toBe(false);
    expect(rulesSchema.safeParse([{ field: "a", op: "above", value: "x", then: "ask" }]).success).toBe(false);
    expect(rulesSchema.safeParse([{ field: "a", op: "above", value: 1, then: "deny" }]).success).toBe(false);
    expect(readRules("nonsense")).toEqual([]);
  });
});
