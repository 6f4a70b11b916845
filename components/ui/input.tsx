// Text inputs and text areas with one look: border, invalid state, visible focus ring.
import { cva, type VariantProps } from "class-variance-authority";
import { cn } from "./cn";

export const inputVariants = cva(
  "w-full min-w-0 rounded-md border border-zinc-300 bg-white text-sm text-zinc-900 placeholder:text-zinc-500 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-ring disabled:cursor-not-allowed disabled:opacity-60 aria-[invalid=true]:border-red-600 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100 dark:placeholder:text-zinc-400 dark:aria-[invalid=true]:border-red-400",
  {
    variants: {
      size: { sm: "h-8 px-2", md: "h-10 px-3" },
    },
    defaultVariants: { size: "md" },
  },
);

export function Input({ className, size, ...props }: Omit<React.ComponentProps<"input">, "size"> & VariantProps<typeof inputVariants>) {
  return <input className={cn(inputVariants({ size }), className)} {...props} />;
}

export function Textarea({ className, ...props }: React.ComponentProps<"textarea">) {
  return <textarea className={cn(inputVariants(), "h-auto py-2", className)} {...props} />;
}
