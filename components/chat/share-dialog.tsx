"use client";
// The chat owner's "Share" button and dialog: share with the whole team or a named member, read-only
// or "can continue"; the list of shares, each revocable at once ("Stop sharing").
import { useCallback, useState } from "react";
import { Share2, X } from "lucide-react";
import { Button } from "../ui/button";
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogTitle, DialogTrigger } from "../ui/dialog";
import { FormMessage } from "../ui/field";
import { Label } from "../ui/label";
import { OptionSelect } from "../ui/select";
import { ApiError, fetchJson, serverMessage, type JsonRequest } from "../shared/fetch-json";

type Share = { id: string; userId: string | null; name: string; canContinue: boolean };
type Loaded = { shares: Share[]; members: { id: string; name: string }[] };

const TEAM = "team";

/** What to say when a request failed: `unreachable` when no answer came, else the server's reason. */
function failure(err: unknown, unreachable: string): string {
  if (err instanceof ApiError && err.unreachable) return unreachable;
  return serverMessage(err) ?? "Could not change the sharing. Try again.";
}

export function ShareButton({ chatId }: { chatId: string }) {
  const [open, setOpen] = useState(false);
  const [data, setData] = useState<Loaded>();
  const [who, setWho] = useState(TEAM);
  const [mode, setMode] = useState("read");
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState(false);

  const load = useCallback(async () => {
    setError(undefined);
    try {
      setData(await fetchJson<Loaded>(`/api/chat/${chatId}/shares`));
    } catch (err) {
      setError(failure(err, "Could not load the sharing."));
    }
  }, [chatId]);

  async function call(url: string, request: JsonRequest) {
    setPending(true);
    setError(undefined);
    const error = await fetchJson(url, request).then(
      () => undefined,
      (err: unknown) => failure(err, "Could not reach the server."),
    );
    setPending(false);
    if (error) return setError(error);
    await load();
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        if (!o) return;
        // Each opening starts a new share from the defaults: the whole team, read-only.
        setWho(TEAM);
        setMode("read");
        void load();
      }}
    >
      <DialogTrigger asChild>
        <Button size="sm" variant="ghost" className="gap-1">
          <Share2 className="size-4" aria-hidden /> Share
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogTitle>Share this chat</DialogTitle>
        <DialogDescription>People you share it with see it live, with its tool calls. Only you send messages and approve calls.</DialogDescription>
        {!data && !error && (
          <p role="status" className="text-sm text-subtle">
            Loading…
          </p>
        )}
        {data && (
          <form
            className="mt-3 flex flex-col gap-3"
            onSubmit={(e) => {
              e.preventDefault();
              void call(`/api/chat/${chatId}/shares`, { method: "POST", body: { userId: who === TEAM ? null : who, canContinue: mode === "continue" } });
            }}
          >
            <div className="flex flex-col gap-1">
              <Label htmlFor="share-with">Share with</Label>
              <OptionSelect
                id="share-with"
                value={who}
                onValueChange={setWho}
                options={[{ value: TEAM, label: "Everyone in the team" }, ...data.members.map((m) => ({ value: m.id, label: m.name }))]}
              />
            </div>
            <div className="flex flex-col gap-1">
              <Label htmlFor="share-mode">Access</Label>
              <OptionSelect
                id="share-mode"
                value={mode}
                onValueChange={setMode}
                options={[
                  { value: "read", label: "Read only" },
                  { value: "continue", label: "Can continue (in their own copy)" },
                ]}
              />
            </div>
            <Button type="submit" disabled={pending} className="self-start">
              {pending ? "Sharing…" : "Share chat"}
            </Button>
          </form>
        )}
        <FormMessage message={error} />
        {data && (
          <section aria-labelledby="shared-with-heading" className="mt-4">
            <h3 id="shared-with-heading" className="text-sm font-medium">
              Shared with
            </h3>
            {data.shares.length === 0 ? (
              <p className="text-sm text-subtle">Nobody yet: only you can see this chat.</p>
            ) : (
              <ul className="mt-1 flex flex-col gap-1">
                {data.shares.map((s) => (
                  <li key={s.id} className="flex items-center gap-2 text-sm">
                    <span className="min-w-0 flex-1 truncate">
                      {s.name} · {s.canContinue ? "can continue" : "read only"}
                    </span>
                    <Button
                      size="xs"
                      variant="ghost"
                      disabled={pending}
                      aria-label={`Stop sharing with ${s.name}`}
                      onClick={() => void call(`/api/chat/${chatId}/shares/${s.id}`, { method: "DELETE" })}
                    >
                      <X className="size-3" aria-hidden /> Stop sharing
                    </Button>
                  </li>
                ))}
              </ul>
            )}
          </section>
        )}
        <DialogClose asChild>
          <Button variant="secondary" size="sm" className="mt-4 self-end">
            Close
          </Button>
        </DialogClose>
      </DialogContent>
    </Dialog>
  );
}
