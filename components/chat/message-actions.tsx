"use client";
// The actions under a message: copy, regenerate and continue for an answer, edit for a question, and
// the version switcher ("2 / 3", Previous version / Next version) of either when it has versions. All
// of them wait while a reply is written. Focus stays on the switcher after a switch.
import { useEffect, useRef, useState } from "react";
import { Check, ChevronLeft, ChevronRight, Copy, Pencil, Play, RotateCcw } from "lucide-react";
import type { ParleyUIMessage } from "@/lib/messages/message-types";
import { Button } from "../ui/button";
import { Tooltip } from "../ui/tooltip";

export type Direction = "previous" | "next";

/** An answer Continue can go on with: stopped, interrupted, or ended at its step limit (its last part says so). */
export function continuable(m: ParleyUIMessage): boolean {
  if (m.role !== "assistant") return false;
  const status = m.metadata?.status;
  if (status === "stopped" || status === "interrupted") return true;
  const end = m.parts.at(-1);
  return status === "done" && end?.type === "data-notice" && end.data.code === "StepLimit";
}

/** What the chat lets a message do; the callbacks are stable, `disabled` while a reply is written. */
export type MessageActions = {
  disabled: boolean;
  maxChars: number;
  onRegenerate: (messageId: string) => void;
  onEdit: (messageId: string, text: string) => void;
  onContinue: (messageId: string) => void;
  onSwitch: (messageId: string, direction: Direction) => void;
};

function IconAction({ label, onClick, disabled, children }: { label: string; onClick: () => void; disabled?: boolean; children: React.ReactNode }) {
  return (
    <Tooltip content={label}>
      <Button variant="ghost" size="icon" aria-label={label} onClick={onClick} disabled={disabled}>
        {children}
      </Button>
    </Tooltip>
  );
}

function CopyButton({ text }: { text: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <IconAction
      label={copied ? "Copied" : "Copy message"}
      onClick={async () => {
        await navigator.clipboard?.writeText(text).catch(() => {});
        setCopied(true);
        setTimeout(() => setCopied(false), 1500);
      }}
    >
      {copied ? <Check className="size-4" aria-hidden /> : <Copy className="size-4" aria-hidden />}
    </IconAction>
  );
}

/** "2 / 3" with Previous version / Next version; `focus` puts the keyboard on it (after a switch). */
export function VersionSwitcher({
  versions,
  disabled,
  onSwitch,
  focus,
}: {
  versions: { index: number; count: number };
  disabled: boolean;
  onSwitch: (d: Direction) => void;
  focus?: Direction;
}) {
  const previous = useRef<HTMLButtonElement>(null);
  const next = useRef<HTMLButtonElement>(null);
  const atFirst = versions.index <= 1;
  const atLast = versions.index >= versions.count;
  useEffect(() => {
    if (!focus) return;
    const wanted = focus === "previous" ? (atFirst ? next : previous) : atLast ? previous : next;
    wanted.current?.focus();
  }, [focus, atFirst, atLast]);
  return (
    <div role="group" aria-label="Versions" className="flex items-center text-xs text-subtle tabular-nums">
      <Button ref={previous} variant="ghost" size="icon" aria-label="Previous version" disabled={disabled || atFirst} onClick={() => onSwitch("previous")}>
        <ChevronLeft className="size-4" aria-hidden />
      </Button>
      <span>
        {versions.index} / {versions.count}
      </span>
      <Button ref={next} variant="ghost" size="icon" aria-label="Next version" disabled={disabled || atLast} onClick={() => onSwitch("next")}>
        <ChevronRight className="size-4" aria-hidden />
      </Button>
    </div>
  );
}

const ROW = "flex flex-wrap items-center gap-1 opacity-70 group-hover:opacity-100 group-focus-within:opacity-100";

/** Under an answer: copy, regenerate (unless its error block offers it), continue after a stop, versions. */
export function AnswerActions({
  message,
  text,
  actions,
  canContinue,
  focus,
}: {
  message: ParleyUIMessage;
  text: string;
  actions: MessageActions;
  canContinue: boolean;
  focus?: Direction;
}) {
  const versions = message.metadata?.versions;
  const failed = message.parts.some((p) => p.type === "data-error");
  return (
    <div className={ROW}>
      {text && <CopyButton text={text} />}
      {!failed && (
        <IconAction label="Regenerate" onClick={() => actions.onRegenerate(message.id)} disabled={actions.disabled}>
          <RotateCcw className="size-4" aria-hidden />
        </IconAction>
      )}
      {canContinue && (
        <Button variant="secondary" size="xs" onClick={() => actions.onContinue(message.id)} disabled={actions.disabled} className="gap-1">
          <Play className="size-3" aria-hidden /> Continue
        </Button>
      )}
      {versions && <VersionSwitcher versions={versions} disabled={actions.disabled} onSwitch={(d) => actions.onSwitch(message.id, d)} focus={focus} />}
    </div>
  );
}

/** Under a question: edit (and resend), versions. */
export function QuestionActions({
  message,
  actions,
  onEdit,
  focus,
  editRef,
}: {
  message: ParleyUIMessage;
  actions: MessageActions;
  onEdit: () => void;
  focus?: Direction;
  editRef: React.Ref<HTMLButtonElement>;
}) {
  const versions = message.metadata?.versions;
  return (
    <div className={ROW}>
      <Tooltip content="Edit message">
        <Button ref={editRef} variant="ghost" size="icon" aria-label="Edit message" onClick={onEdit} disabled={actions.disabled}>
          <Pencil className="size-4" aria-hidden />
        </Button>
      </Tooltip>
      {versions && <VersionSwitcher versions={versions} disabled={actions.disabled} onSwitch={(d) => actions.onSwitch(message.id, d)} focus={focus} />}
    </div>
  );
}
