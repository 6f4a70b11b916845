"use client";
// Select: the browser's own <select>, styled like the kit's other fields. Native on purpose: it is
// keyboard- and screen-reader-complete on every platform (and the phone's own picker on mobile), and
// people's tools drive it as a select. OptionSelect is the one the app uses: options (optionally
// grouped), controlled or not, a form value under `name`, and submit-on-change.
import { useLayoutEffect, useRef, useState } from "react";
import { flushSync } from "react-dom";
import { ChevronDown } from "lucide-react";
import { cva, type VariantProps } from "class-variance-authority";
import { cn } from "./cn";

export const selectVariants = cva(
  "w-full appearance-none rounded-md border border-line-strong bg-surface pr-8 text-left text-strong focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-ring disabled:cursor-not-allowed disabled:opacity-60 aria-[invalid=true]:border-invalid",
  {
    variants: { size: { xs: "h-7 pl-2 text-xs", sm: "h-8 pl-2 text-sm", md: "h-10 pl-3 text-sm" } },
    defaultVariants: { size: "md" },
  },
);

export type Option = { value: string; label: string };
export type OptionGroup = { label: string; options: Option[] };

type OptionSelectProps = {
  options: (Option | OptionGroup)[];
  /** Controlled value; else `defaultValue` (uncontrolled). */
  value?: string;
  defaultValue?: string;
  onValueChange?: (value: string) => void;
  /** Form field name. */
  name?: string;
  /** Submit the surrounding form once the value changed. */
  submitOnChange?: boolean;
  disabled?: boolean;
  id?: string;
  className?: string;
  /** Shown (and not choosable) while no option is selected. */
  placeholder?: string;
  "aria-label"?: string;
  "aria-describedby"?: string;
  "aria-invalid"?: true;
  "aria-busy"?: boolean;
} & VariantProps<typeof selectVariants>;

const values = (options: (Option | OptionGroup)[]) => options.flatMap((o) => ("options" in o ? o.options : [o])).map((o) => o.value);

export function OptionSelect({
  options,
  value,
  defaultValue,
  onValueChange,
  name,
  submitOnChange,
  disabled,
  id,
  className,
  size,
  placeholder,
  ...aria
}: OptionSelectProps) {
  const [own, setOwn] = useState(defaultValue ?? "");
  const current = value ?? own;
  const unset = !values(options).includes(current);
  const ref = useRef<HTMLSelectElement>(null);
  // React resets a form after its action ran, and a reset puts a select back on its first rendered
  // value: the shown value (what was just saved) is made the one a reset returns to.
  useLayoutEffect(() => {
    for (const option of ref.current?.options ?? []) option.defaultSelected = option.value === (unset ? "" : current);
  });
  return (
    <span className={cn("relative inline-flex items-center", className)}>
      <select
        ref={ref}
        id={id}
        name={name}
        value={unset ? "" : current}
        disabled={disabled}
        data-value={current}
        className={selectVariants({ size })}
        onChange={(e) => {
          const next = e.currentTarget.value;
          const form = e.currentTarget.form;
          // The new value is rendered before the form reads it.
          flushSync(() => {
            setOwn(next);
            onValueChange?.(next);
          });
          if (submitOnChange) form?.requestSubmit();
        }}
        {...aria}
      >
        {unset && (
          <option value="" disabled>
            {placeholder ?? "Choose…"}
          </option>
        )}
        {options.map((o) =>
          "options" in o ? (
            <optgroup key={`g:${o.label}`} label={o.label}>
              {o.options.map((x) => (
                <option key={x.value} value={x.value}>
                  {x.label}
                </option>
              ))}
            </optgroup>
          ) : (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ),
        )}
      </select>
      <ChevronDown className="pointer-events-none absolute right-2 size-4 opacity-60" aria-hidden />
    </span>
  );
}
