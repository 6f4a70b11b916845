"use client";
// Text inputs and text areas with one look: border, invalid state, visible focus ring. A controlled one
// keeps what was typed before the page became interactive (see useTypedBeforeHydration).
import { useEffect, useImperativeHandle, useRef, type ChangeEvent, type Ref, type RefObject } from "react";
import { cva, type VariantProps } from "class-variance-authority";
import { cn } from "./cn";

export const inputVariants = cva(
  "w-full min-w-0 rounded-md border border-line-strong bg-surface text-sm text-strong placeholder:text-faint focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-ring disabled:cursor-not-allowed disabled:opacity-60 aria-[invalid=true]:border-invalid",
  {
    variants: {
      size: { sm: "h-8 px-2", md: "h-10 px-3" },
    },
    defaultVariants: { size: "md" },
  },
);

type Field = HTMLInputElement | HTMLTextAreaElement;
type Controlled<E extends Field> = { value?: unknown; onChange?: (e: ChangeEvent<E>) => void; ref?: Ref<E> };

/**
 * A server-rendered field a person typed into before React took the page over holds their words while
 * its state still holds the rendered value (React leaves the element's value alone when it hydrates and
 * tells nobody): at mount, such words are handed to `onChange` as if typed then. The element's ref
 * (the caller's `ref` gets the element too).
 */
function useTypedBeforeHydration<E extends Field>({ value, onChange, ref }: Controlled<E>): RefObject<E | null> {
  const own = useRef<E | null>(null);
  const first = useRef({ value, onChange });
  useEffect(() => {
    const el = own.current;
    const { value: rendered, onChange: change } = first.current;
    if (!el || !change || rendered === undefined || rendered === null) return;
    if (el instanceof HTMLInputElement && (el.type === "checkbox" || el.type === "radio" || el.type === "file")) return;
    if (el.value !== String(rendered)) change({ target: el, currentTarget: el } as ChangeEvent<E>);
  }, []);
  useImperativeHandle(ref, () => own.current as E, []);
  return own;
}

export function Input({ className, size, ...props }: Omit<React.ComponentProps<"input">, "size"> & VariantProps<typeof inputVariants>) {
  const ref = useTypedBeforeHydration(props);
  return <input className={cn(inputVariants({ size }), className)} {...props} ref={ref} />;
}

export function Textarea({ className, ...props }: React.ComponentProps<"textarea">) {
  const ref = useTypedBeforeHydration(props);
  return <textarea className={cn(inputVariants(), "h-auto py-2", className)} {...props} ref={ref} />;
}
