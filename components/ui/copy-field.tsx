"use client";
// A link shown once (an invite or a password reset link): read-only, selected on focus, with a copy button.
import { useState } from "react";
import { Check, Copy } from "lucide-react";
import { Button } from "./button";
import { FormField } from "./field";
import { Input } from "./input";

export function CopyField({ label, url, hint }: { label: string; url: string; hint?: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <FormField label={label} hint={hint}>
      {(control) => (
        <div className="flex gap-2">
          <Input {...control} readOnly value={url} className="flex-1 bg-panel font-mono text-xs" onFocus={(e) => e.currentTarget.select()} />
          <Button
            variant="secondary"
            onClick={async () => {
              await navigator.clipboard?.writeText(url).catch(() => {});
              setCopied(true);
            }}
          >
            {copied ? <Check className="size-4" aria-hidden /> : <Copy className="size-4" aria-hidden />}
            {copied ? "Copied" : "Copy"}
          </Button>
        </div>
      )}
    </FormField>
  );
}
