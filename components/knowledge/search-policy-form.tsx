"use client";
// The team's policy for knowledge searches in chats (lib/knowledge/search-policy.ts): run without asking,
// ask every time, an admin approves, or off. Saved on change (PUT /api/teams/<teamId>/knowledge-search)
// and said so, or why not.
import { useState } from "react";
import { FormMessage } from "../ui/field";
import { OptionSelect } from "../ui/select";
import { fetchJson, serverMessage } from "../shared/fetch-json";

type Policy = "auto" | "ask" | "admin" | "deny";

const OPTIONS: { value: Policy; label: string }[] = [
  { value: "auto", label: "Run without asking" },
  { value: "ask", label: "Ask every time" },
  { value: "admin", label: "An admin approves" },
  { value: "deny", label: "Off: chats do not search knowledge" },
];

export function SearchPolicyForm({ teamId, policy: saved }: { teamId: string; policy: Policy }) {
  const [policy, setPolicy] = useState<Policy>(saved);
  const [pending, setPending] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; message: string }>();

  async function save(next: Policy) {
    const before = policy;
    setPolicy(next);
    setPending(true);
    setResult(undefined);
    try {
      await fetchJson(`/api/teams/${teamId}/knowledge-search`, { method: "PUT", body: { policy: next } });
      setResult({ ok: true, message: "Saved." });
    } catch (err) {
      setPolicy(before);
      setResult({ ok: false, message: serverMessage(err) ?? "Could not reach the server. Try again." });
    } finally {
      setPending(false);
    }
  }

  return (
    <div className="flex flex-col gap-2" aria-busy={pending}>
      <label htmlFor="knowledge-search-policy" className="text-sm font-medium">
        Knowledge searches in chats
      </label>
      <OptionSelect
        id="knowledge-search-policy"
        size="sm"
        className="w-72"
        options={OPTIONS}
        value={policy}
        disabled={pending}
        onValueChange={(v) => void save(v as Policy)}
      />
      <p className="text-xs text-subtle">
        Each search is a step in the answer, named in the audit log. When searches ask first, chats set to search before each answer let the model ask instead.
      </p>
      <FormMessage message={result?.message} ok={result?.ok} />
    </div>
  );
}
