"use client";
// Select on Radix: a button (role combobox) opening a listbox, keyboard and typeahead included.
// OptionSelect is the one the app uses: options (optionally grouped), a form value through a hidden
// input (so "" works as a value, which Radix items do not allow), and submit-on-change.
import { useRef, useState } from "react";
import { flushSync } from "react-dom";
import { Select as SelectPrimitive } from "radix-ui";
import { Check, ChevronDown } from "lucide-react";
import { cva, type VariantProps } from "class-variance-authority";
import { cn } from "./cn";

export const selectTriggerVariants = cva(
  "inline-flex items-center justify-between gap-2 rounded-md border border-zinc-300 bg-white text-left text-zinc-900 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-ring disabled:cursor-not-allowed disabled:opacity-60 aria-[invalid=true]:border-red-600 data-[placeholder]:text-zinc-500 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100 dark:aria-[invalid=true]:border-red-400",
  {
    variants: { size: { xs: "h-7 px-2 text-xs", sm: "h-8 px-2 text-sm", md: "h-10 px-3 text-sm" } },
    defaultVariants: { size: "md" },
  },
);

export function SelectContent({ className, children, ...props }: React.ComponentProps<typeof SelectPrimitive.Content>) {
  return (
    <SelectPrimitive.Portal>
      <SelectPrimitive.Content
        position="popper"
        sideOffset={4}
        className={cn(
          "relative z-50 max-h-(--radix-select-content-available-height) min-w-(--radix-select-trigger-width) overflow-y-auto rounded-md border border-zinc-200 bg-white p-1 text-sm text-zinc-900 shadow-lg dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100",
          className,
        )}
        {...props}
      >
        <SelectPrimitive.Viewport>{children}</SelectPrimitive.Viewport>
      </SelectPrimitive.Content>
    </SelectPrimitive.Portal>
  );
}

export function SelectItem({ className, children, ...props }: React.ComponentProps<typeof SelectPrimitive.Item>) {
  return (
    <SelectPrimitive.Item
      className={cn(
        "relative flex cursor-default items-center rounded py-1.5 pr-2 pl-7 outline-none select-none data-[disabled]:opacity-50 data-[highlighted]:bg-zinc-100 dark:data-[highlighted]:bg-zinc-800",
        className,
      )}
      {...props}
    >
      <SelectPrimitive.ItemIndicator className="absolute left-2 inline-flex">
        <Check className="size-4" aria-hidden />
      </SelectPrimitive.ItemIndicator>
      <SelectPrimitive.ItemText>{children}</SelectPrimitive.ItemText>
    </SelectPrimitive.Item>
  );
}

export type Option = { value: string; label: string };
export type OptionGroup = { label: string; options: Option[] };

// Radix reserves "" (it clears the selection): stand in for it inside the widget only.
const EMPTY = "\u0000empty";
const toItem = (v: string) => (v === "" ? EMPTY : v);
const fromItem = (v: string) => (v === EMPTY ? "" : v);

type OptionSelectProps = {
  options: (Option | OptionGroup)[];
  /** Controlled value; else `defaultValue` (uncontrolled). */
  value?: string;
  defaultValue?: string;
  onValueChange?: (value: string) => void;
  /** Form field name: the value is posted through a hidden input. */
  name?: string;
  /** Submit the surrounding form once the value changed. */
  submitOnChange?: boolean;
  disabled?: boolean;
  id?: string;
  className?: string;
  placeholder?: string;
  "aria-label"?: string;
  "aria-describedby"?: string;
  "aria-invalid"?: true;
  "aria-busy"?: boolean;
} & VariantProps<typeof selectTriggerVariants>;

export function OptionSelect({ options, value, defaultValue, onValueChange, name, submitOnChange, disabled, id, className, size, placeholder, ...aria }: OptionSelectProps) {
  const [own, setOwn] = useState(defaultValue ?? "");
  const current = value ?? own;
  const hidden = useRef<HTMLInputElement>(null);
  const anchor = useRef<HTMLButtonElement>(null);
  return (
    <SelectPrimitive.Root
      value={toItem(current)}
      disabled={disabled}
      onValueChange={(item) => {
        const next = fromItem(item);
        const apply = () => {
          setOwn(next);
          onValueChange?.(next);
        };
        if (!submitOnChange) return apply();
        flushSync(apply); // the hidden input holds the new value before the form is submitted
        (hidden.current?.form ?? anchor.current?.closest("form"))?.requestSubmit();
      }}
    >
      <SelectPrimitive.Trigger ref={anchor} id={id} data-value={current} className={cn(selectTriggerVariants({ size }), className)} {...aria}>
        <span className="min-w-0 truncate">
          <SelectPrimitive.Value placeholder={placeholder} />
        </span>
        <SelectPrimitive.Icon asChild>
          <ChevronDown className="size-4 shrink-0 opacity-60" aria-hidden />
        </SelectPrimitive.Icon>
      </SelectPrimitive.Trigger>
      <SelectContent>
        {options.map((o) =>
          "options" in o ? (
            <SelectPrimitive.Group key={`g:${o.label}`}>
              <SelectPrimitive.Label className="px-2 pt-2 pb-1 text-xs font-medium text-zinc-600 dark:text-zinc-400">{o.label}</SelectPrimitive.Label>
              {o.options.map((x) => (
                <SelectItem key={x.value} value={toItem(x.value)}>
                  {x.label}
                </SelectItem>
              ))}
            </SelectPrimitive.Group>
          ) : (
            <SelectItem key={o.value} value={toItem(o.value)}>
              {o.label}
            </SelectItem>
          ),
        )}
      </SelectContent>
      {name && <input ref={hidden} type="hidden" name={name} value={current} />}
    </SelectPrimitive.Root>
  );
}
