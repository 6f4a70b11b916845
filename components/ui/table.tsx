// Tables: one look for data tables (scrolling sideways inside a bordered frame on narrow screens; the
// frame is named by `label` and reachable by keyboard, so a keyboard user can scroll it too).
import { cn } from "./cn";

export function Table({ className, label, ...props }: React.ComponentProps<"table"> & { label: string }) {
  return (
    <div role="region" aria-label={label} tabIndex={0} className="overflow-x-auto rounded-lg border border-zinc-200 dark:border-zinc-800">
      <table aria-label={label} className={cn("w-full text-sm", className)} {...props} />
    </div>
  );
}

export function TableHeader({ className, ...props }: React.ComponentProps<"thead">) {
  return (
    <thead className={cn("bg-zinc-50 text-left text-xs tracking-wide text-zinc-600 uppercase dark:bg-zinc-900 dark:text-zinc-400", className)} {...props} />
  );
}

export function TableBody(props: React.ComponentProps<"tbody">) {
  return <tbody {...props} />;
}

export function TableRow({ className, ...props }: React.ComponentProps<"tr">) {
  return <tr className={cn("border-t border-zinc-200 first:border-t-0 dark:border-zinc-800", className)} {...props} />;
}

export function TableHead({ className, ...props }: React.ComponentProps<"th">) {
  return <th scope="col" className={cn("px-3 py-2 font-medium", className)} {...props} />;
}

export function TableCell({ className, ...props }: React.ComponentProps<"td">) {
  return <td className={cn("px-3 py-2", className)} {...props} />;
}
