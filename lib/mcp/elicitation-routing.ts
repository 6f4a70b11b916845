// Which tool call a server's elicitation/create belongs to. One session serves every turn, so the
// question must reach the person whose call asked it: over Streamable HTTP the request arrives on the
// call's own response stream, which runs in the call's async context (AsyncLocalStorage); over SSE and
// stdio, where every message shares one stream, it goes to the only call of the session that can ask
// a person, and is cancelled when there is none or more than one (never shown to the wrong person).
// On 2026-07-28 the question comes inside the call's own answer (input_required) and the SDK asks it
// from within the call, so it always runs in the call's context.
import { AsyncLocalStorage } from "node:async_hooks";
import type { ElicitRequest, ElicitResult } from "@modelcontextprotocol/client";

export type ElicitationRequest =
  | { mode: "form"; message: string; requestedSchema: Record<string, unknown> }
  | { mode: "url"; message: string; url: string; /** 2025-11-25 only: 2026-07-28 has no completion notice. */ elicitationId?: string };

export type ElicitationAnswer = { action: "accept"; content?: Record<string, string | number | boolean | string[]> } | { action: "decline" | "cancel" };

/** Asks the person behind one tool call; resolves with their answer (or cancel when the call ends). */
export type Elicit = (request: ElicitationRequest, signal: AbortSignal) => Promise<ElicitationAnswer>;

const current = new AsyncLocalStorage<Elicit>();

/** Runs a call so that elicitations arriving on its stream reach `elicit`. */
export function runAsking<T>(elicit: Elicit | undefined, fn: () => Promise<T>): Promise<T> {
  return elicit ? current.run(elicit, fn) : fn();
}

/** The request as Parley reads it (the SDK has already checked its shape and that the mode is declared). */
export function readRequest(params: ElicitRequest["params"]): ElicitationRequest {
  if (params.mode === "url") return { mode: "url", message: params.message, url: params.url, elicitationId: params.elicitationId };
  return { mode: "form", message: params.message, requestedSchema: params.requestedSchema as Record<string, unknown> };
}

/**
 * Answers one elicitation/create: routed to the call in whose context it arrived, else to the only
 * call of the session that can ask (`asking`); cancelled when no call can take it.
 */
export async function routeElicitation(params: ElicitRequest["params"], signal: AbortSignal, asking: ReadonlySet<Elicit>): Promise<ElicitResult> {
  const elicit = current.getStore() ?? (asking.size === 1 ? [...asking][0] : undefined);
  if (!elicit) return { action: "cancel" };
  const answer = await elicit(readRequest(params), signal);
  return answer.action === "accept" && answer.content ? { action: "accept", content: answer.content } : { action: answer.action };
}
