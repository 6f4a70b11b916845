// The one wrapper every tool of a turn goes through: the call timeout and the turn's abort signal
// (AbortSignal.any), progress while it runs (yielded as preliminary outputs, so the tool block shows
// a moving bar), and failures as coded errors — the model sees `[ERROR:<code>] message`.
// Approval slots in through `needsApproval` (AI SDK: tool-approval-request before execute runs).
import { dynamicTool, jsonSchema, type JSONSchema7, type Tool } from "ai";
import type { Progress } from "../mcp/connection";
import { ToolError } from "./error-codes";
import { metrics } from "../observability/metrics";

/** What the tool block receives while a call runs (a preliminary output): progress, a question for the person. */
type RunningOutput = { running: true; progress?: Progress; elicitation?: unknown };

/** What a tool gives the model for a result (the AI SDK's ToolResultOutput). */
type ToolResultOutput = Awaited<ReturnType<NonNullable<Tool["toModelOutput"]>>>;

/** `needsApproval` of an AI SDK tool: a boolean, or a function of the input deciding per call. */
export type NeedsApproval = NonNullable<Tool["needsApproval"]>;

export type WrapOptions<TOut> = {
  description?: string;
  title?: string;
  inputSchema: JSONSchema7;
  /** Shown to the UI with every part of this tool (source, server, original tool name). */
  metadata: Record<string, string>;
  timeoutMs: number;
  /** Runs the call. Throw a ToolError (or anything; `classify` maps it) to fail it. */
  run: (
    input: Record<string, unknown>,
    ctx: { signal: AbortSignal; toolCallId: string; onProgress: (p: Progress) => void; onElicitation: (view: unknown) => void },
  ) => Promise<TOut>;
  classify: (err: unknown, ctx: { timedOut: boolean; aborted: boolean; timeoutMs: number }) => ToolError;
  /** What the model receives for a successful result (text, or text and images). */
  modelOutput: (out: TOut) => ToolResultOutput;
  /** A note the model reads before the result of this call (a person edited its input). */
  note?: (toolCallId: string) => string | undefined;
  /** Approval (issue 6): undefined or false runs at once (policy `auto`). */
  needsApproval?: NeedsApproval;
};

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

export function timeoutError(timeoutMs: number): ToolError {
  return new ToolError("Timeout", `The tool did not answer within ${seconds(timeoutMs)}.`);
}

/** A call that timed out while its server's question waited for the person. */
export function unansweredError(timeoutMs: number): ToolError {
  return new ToolError("Timeout", `No answer to the server's question within ${seconds(timeoutMs)} (the tool's time limit); the call ended.`);
}

export function abortedError(): ToolError {
  return new ToolError("Aborted", "The call was stopped.");
}

export function wrapTool<TOut>(opts: WrapOptions<TOut>): Tool {
  return dynamicTool({
    description: opts.description,
    title: opts.title,
    metadata: opts.metadata,
    inputSchema: jsonSchema(opts.inputSchema),
    needsApproval: opts.needsApproval,
    toModelOutput: ({ output, toolCallId }) => {
      const note = opts.note?.(toolCallId);
      const out = opts.modelOutput(output as TOut);
      if (note && out.type === "text") return { ...out, value: `${note}\n${out.value}` };
      if (note && out.type === "content") return { ...out, value: [{ type: "text" as const, text: note }, ...out.value] };
      return out;
    },
    async *execute(input, { abortSignal, toolCallId }) {
      if (input === null || typeof input !== "object" || Array.isArray(input)) {
        throw new ToolError("InvalidArgs", "The arguments must be a JSON object.");
      }
      const timeout = AbortSignal.timeout(opts.timeoutMs);
      const signal = abortSignal ? AbortSignal.any([abortSignal, timeout]) : timeout;
      // The newest running state; `fresh` when it has not been yielded yet.
      const state: RunningOutput = { running: true };
      let fresh = false;
      let wake: (() => void) | undefined;
      let settled: { ok: true; value: TOut } | { ok: false; error: unknown } | undefined;
      const running = opts
        .run(input as Record<string, unknown>, {
          signal,
          toolCallId,
          onProgress: (p) => {
            state.progress = p;
            fresh = true;
            wake?.();
          },
          onElicitation: (view) => {
            state.elicitation = view;
            fresh = true;
            wake?.();
          },
        })
        .then(
          (value) => (settled = { ok: true, value }),
          (error) => (settled = { ok: false, error }),
        )
        .finally(() => wake?.());
      // The call may ignore the signal; the turn must not wait for it.
      const stopped = new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
      while (!settled) {
        if (!fresh) await Promise.race([running, stopped, new Promise<void>((r) => (wake = r))]);
        wake = undefined;
        if (!settled && signal.aborted) break;
        if (fresh && !settled) {
          fresh = false;
          const { elicitation, ...rest } = state;
          yield (elicitation === undefined ? rest : { ...rest, elicitation }) as unknown as TOut;
        }
      }
      const ctx = { timedOut: timeout.aborted, aborted: !!abortSignal?.aborted, timeoutMs: opts.timeoutMs };
      const failed = (e: ToolError) => (metrics().toolErrors.inc({ code: e.code }), e);
      if (!settled)
        throw failed(ctx.aborted ? abortedError() : state.elicitation !== undefined ? unansweredError(opts.timeoutMs) : timeoutError(opts.timeoutMs));
      const done = settled as { ok: true; value: TOut } | { ok: false; error: unknown };
      if (!done.ok) throw failed(done.error instanceof ToolError ? done.error : opts.classify(done.error, ctx));
      yield done.value;
    },
  });
}
