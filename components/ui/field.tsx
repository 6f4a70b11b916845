// The one field pattern: a label tied to its control, a hint or an error tied with aria-describedby,
// aria-invalid while there is an error. FormField takes any control (render function); Field and
// TextareaField are the common ones. FormMessage is a form's outcome in a live region.
import { useId } from "react";
import { Input, Textarea } from "./input";
import { Label } from "./label";
import { cn } from "./cn";

export type ControlProps = { id: string; "aria-describedby"?: string; "aria-invalid"?: true };

type Shell = { label: string; error?: string; hint?: string; className?: string; id?: string };

export function FormField({ label, error, hint, className, id: given, children }: Shell & { children: (control: ControlProps) => React.ReactNode }) {
  const generated = useId();
  const id = given ?? generated;
  const noteId = error || hint ? `${id}-note` : undefined;
  return (
    <div className={cn("flex flex-col gap-1", className)}>
      <Label htmlFor={id}>{label}</Label>
      {children({ id, "aria-describedby": noteId, "aria-invalid": error ? true : undefined })}
      {noteId && (
        <p id={noteId} className={error ? "text-sm text-danger" : "text-xs text-subtle"}>
          {error ?? hint}
        </p>
      )}
    </div>
  );
}

type InputProps = Omit<React.ComponentProps<typeof Input>, "id">;

export function Field({ label, error, hint, className, id, ...input }: Shell & InputProps) {
  return (
    <FormField label={label} error={error} hint={hint} className={className} id={id}>
      {(control) => <Input {...control} {...input} />}
    </FormField>
  );
}

export function TextareaField({ label, error, hint, className, id, ...textarea }: Shell & Omit<React.ComponentProps<"textarea">, "id">) {
  return (
    <FormField label={label} error={error} hint={hint} className={className} id={id}>
      {(control) => <Textarea {...control} {...textarea} />}
    </FormField>
  );
}

/** A labelled checkbox (native: keyboard, forms and screen readers get what they expect). */
export function CheckboxField({ label, className, ...input }: { label: React.ReactNode } & Omit<React.ComponentProps<"input">, "type">) {
  return (
    <label className={cn("flex items-center gap-2 text-sm", className)}>
      <input type="checkbox" className="size-4 accent-accent focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring" {...input} />{" "}
      {label}
    </label>
  );
}

/** An action's outcome: a status when `ok`, else an alert (both live regions); nothing without a message. */
export function FormMessage({
  message,
  ok,
  className,
  ...rest
}: { message?: string; ok?: boolean } & Omit<React.HTMLAttributes<HTMLParagraphElement>, "role" | "children">) {
  if (!message) return null;
  return (
    <p
      {...rest}
      role={ok ? "status" : "alert"}
      className={cn("rounded-md px-3 py-2 text-sm", ok ? "bg-success-soft text-on-success-soft" : "bg-error-soft text-on-error-soft", className)}
    >
      {message}
    </p>
  );
}
