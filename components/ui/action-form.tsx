"use client";
// The form pattern for server actions: useActionState, the action's message in a live region
// (FormMessage), and each field's error through the render function's state (see Field).
import { useActionState } from "react";
import { initialActionState, type ActionState } from "./form-state";
import { FormMessage } from "./field";

export type FormAction = (prev: ActionState, form: FormData) => Promise<ActionState>;

export function ActionForm({
  action,
  children,
  className = "flex flex-col gap-4",
  label,
  showSuccess = false,
}: {
  action: FormAction;
  children: (state: ActionState) => React.ReactNode;
  className?: string;
  label?: string;
  showSuccess?: boolean;
}) {
  const [state, formAction] = useActionState(action, initialActionState);
  return (
    <form action={formAction} className={className} aria-label={label} noValidate>
      {(!state.ok || showSuccess) && <FormMessage message={state.message} ok={state.ok} />}
      {children(state)}
    </form>
  );
}
