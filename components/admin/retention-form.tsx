"use client";
// The team's retention: keep chats for ever, or delete those untouched for N days (1 to 3650), with
// everything in them. Sends PUT /api/teams/<teamId>/retention { days } and says what was saved.
import { useState } from "react";
import { useRouter } from "next/navigation";
import { Button } from "../ui/button";
import { FormMessage } from "../ui/field";
import { Input } from "../ui/input";
import { ApiError, fetchJson } from "../shared/fetch-json";

const said = (days: number | null) =>
  days === null ? "Chats are kept for ever." : `Chats untouched for ${days} ${days === 1 ? "day" : "days"} are deleted, with everything in them.`;

export function RetentionForm({ teamId, days: saved }: { teamId: string; days: number | null }) {
  const router = useRouter();
  const [mode, setMode] = useState<"forever" | "days">(saved === null ? "forever" : "days");
  const [days, setDays] = useState(String(saved ?? 90));
  const [pending, setPending] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; message: string }>();

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setPending(true);
    setResult(undefined);
    const value = mode === "forever" ? null : Number(days);
    try {
      await fetchJson(`/api/teams/${teamId}/retention`, { method: "PUT", body: { days: value } });
      router.refresh();
      setResult({ ok: true, message: `Saved. ${said(value)}` });
    } catch (err) {
      const refused = err instanceof ApiError && !err.unreachable ? err : undefined;
      setResult({
        ok: false,
        message: refused ? (refused.fields?.days ?? "Enter a whole number of days from 1 to 3650.") : "Could not reach the server. Try again.",
      });
    } finally {
      setPending(false);
    }
  }

  return (
    <form onSubmit={submit} className="flex flex-col gap-3" aria-busy={pending}>
      <p className="text-sm text-subtle">Now: {said(saved)} Checked every hour.</p>
      <fieldset className="flex flex-col gap-2">
        <legend className="sr-only">Keep chats</legend>
        <label className="flex items-center gap-2 text-sm">
          <input
            type="radio"
            name="retention"
            value="forever"
            checked={mode === "forever"}
            onChange={() => setMode("forever")}
            className="size-4 accent-accent"
          />{" "}
          Keep chats for ever
        </label>
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <label className="flex items-center gap-2">
            <input type="radio" name="retention" value="days" checked={mode === "days"} onChange={() => setMode("days")} className="size-4 accent-accent" />{" "}
            Keep chats for
          </label>
          <label htmlFor="retention-days" className="sr-only">
            Number of days
          </label>
          <Input
            id="retention-days"
            type="number"
            min={1}
            max={3650}
            step={1}
            size="sm"
            className="w-24"
            value={days}
            disabled={mode !== "days"}
            onChange={(e) => setDays(e.target.value)}
          />
          <span>days after their last activity</span>
        </div>
      </fieldset>
      <FormMessage message={result?.message} ok={result?.ok} />
      <Button type="submit" disabled={pending} className="self-start">
        {pending ? "Saving…" : "Save retention"}
      </Button>
    </form>
  );
}
