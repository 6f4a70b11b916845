// Weak passwords are refused with the reason in words; strong ones pass, offline.
import { describe, expect, it } from "vitest";
import { passwordWeakness } from "./password-strength";

describe("passwordWeakness", () => {
  it("refuses common and trivial passwords, naming why", () => {
    expect(passwordWeakness("password")).toMatch(/one of the most common passwords/);
    expect(passwordWeakness("12345678")).toMatch(/one of the most common passwords/);
    expect(passwordWeakness("        ")).toMatch(/repeats the same character/);
    expect(passwordWeakness("qwertyuiop")).toMatch(/common|keyboard/);
    expect(passwordWeakness("Password123!")).toMatch(/close to a commonly used password/);
    expect(passwordWeakness("abcdefgh1234")).toBeDefined();
  });

  it("counts the person's own name and email as easy guesses", () => {
    const ada = ["ada.lovelace@example.com", "Ada Lovelace"];
    expect(passwordWeakness("adalovelace1", ada)).toMatch(/your name or email address/);
    expect(passwordWeakness("ada.lovelace@example.com", ada)).toMatch(/your name or email address/);
    expect(passwordWeakness("adalovelace1")).toBeUndefined();
  });

  it("accepts passphrases and random strings", () => {
    for (const p of ["correct horse battery", "a long enough password", "lumen quartz harbor 42", "Tr0ub4dor&3x", "x7#Kq9!vLm2$"]) {
      expect(passwordWeakness(p), p).toBeUndefined();
    }
  });
});
