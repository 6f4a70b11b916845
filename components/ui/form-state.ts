// The state a server action's form starts from (useActionState). The shape is lib/actions' ActionState;
// the value lives here so components import nothing but types from lib.
import type { ActionState } from "@/lib/actions";

export type { ActionState };

export const initialActionState: ActionState = { ok: false };
