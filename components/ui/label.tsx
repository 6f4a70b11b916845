// A label (Radix Label: clicking it focuses its control, text selection on double click is kept).
import { Label as LabelPrimitive } from "radix-ui";
import { cn } from "./cn";

export function Label({ className, ...props }: React.ComponentProps<typeof LabelPrimitive.Root>) {
  return <LabelPrimitive.Root className={cn("text-sm font-medium", className)} {...props} />;
}
