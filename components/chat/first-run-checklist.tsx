// The admin's first steps on the empty chat page, each ticked once the database says it is done, with
// a link to where it is done. Shown until every step is.
import Link from "next/link";
import { CheckCircle2, Circle } from "lucide-react";
import type { FirstRunSteps } from "@/lib/teams/first-run";

const STEPS: { key: keyof FirstRunSteps; label: string; href: string; hint: string }[] = [
  { key: "provider", label: "Connect a provider", href: "/admin/providers", hint: "A model provider (OpenAI, Anthropic, Ollama, …) so people can chat." },
  { key: "mcpServer", label: "Add an MCP server", href: "/admin/mcp", hint: "Tools the models may call, with your approval." },
  { key: "invited", label: "Invite people", href: "/admin/members", hint: "An invite link for each person of the team." },
];

export function FirstRunChecklist({ steps }: { steps: FirstRunSteps }) {
  return (
    <section aria-labelledby="first-steps" className="w-full max-w-md rounded-xl border border-line p-4 text-left">
      <h2 id="first-steps" className="mb-3 text-base font-semibold">
        Get your team started
      </h2>
      <ol className="flex flex-col gap-3">
        {STEPS.map((step) => {
          const done = steps[step.key];
          return (
            <li key={step.key} className="flex items-start gap-3" data-done={done}>
              {done ? (
                <CheckCircle2 className="mt-0.5 size-5 shrink-0 text-success" aria-hidden />
              ) : (
                <Circle className="mt-0.5 size-5 shrink-0 text-faint" aria-hidden />
              )}
              <div className="min-w-0">
                <Link href={step.href} className="text-sm font-medium text-accent-text underline underline-offset-2">
                  {step.label}
                </Link>
                <span className="ml-2 text-xs text-subtle">{done ? "Done" : "To do"}</span>
                <p className="text-xs text-subtle">{step.hint}</p>
              </div>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
