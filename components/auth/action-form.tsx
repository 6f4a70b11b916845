"use client";
// A form bound to a server action with useActionState: shows the action's message and passes each
// field its error. Children get the state through a render function.
import { useActionState } from "react";
import { initialActionState, type ActionState } from "@/lib/actions";
import { FormMessage } from "../ui/field";

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
