"use client";
// A question opened for editing in place: Send writes it as a new version and answers it (the chat
// branches; the old version stays one switch away), Cancel or Escape closes it without a change.
import { useState } from "react";
import { Button } from "../ui/button";
import { Textarea } from "../ui/input";

export function EditQuestion({
  id,
  text,
  maxChars,
  onSend,
  onCancel,
}: {
  id: string;
  text: string;
  maxChars: number;
  onSend: (text: string) => void;
  onCancel: () => void;
}) {
  const [value, setValue] = useState(text);
  const trimmed = value.trim();
  const tooLong = value.length > maxChars;
  const canSend = trimmed.length > 0 && !tooLong && trimmed !== text.trim();
  return (
    <form
      className="flex w-full max-w-[85%] flex-col gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        if (canSend) onSend(trimmed);
      }}
    >
      <label htmlFor={`edit-${id}`} className="sr-only">
        Edit message
      </label>
      <Textarea
        id={`edit-${id}`}
        autoFocus
        value={value}
        aria-invalid={tooLong || undefined}
        onChange={(e) => setValue(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Escape") onCancel();
          if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault();
            if (canSend) onSend(trimmed);
          }
        }}
        className="max-h-72 min-h-16 resize-none rounded-xl [field-sizing:content]"
      />
      {tooLong && (
        <p role="alert" className="text-xs text-danger">
          The message is {value.length.toLocaleString()} characters; the limit is {maxChars.toLocaleString()}.
        </p>
      )}
      <div className="flex justify-end gap-2">
        <Button variant="secondary" size="sm" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" size="sm" disabled={!canSend}>
          Send
        </Button>
      </div>
    </form>
  );
}
