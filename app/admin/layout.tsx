import Link from "next/link";
import { adminPage } from "@/lib/teams/page-guards";
import { SignedInShell } from "../(chat)/signed-in-shell";

export const dynamic = "force-dynamic";

const SECTIONS = [
  { href: "/admin/members", label: "Members" },
  { href: "/admin/providers", label: "Providers" },
  { href: "/admin/mcp", label: "MCP servers" },
  { href: "/admin/audit", label: "Audit log" },
];

export default async function AdminLayout({ children }: { children: React.ReactNode }) {
  const ctx = await adminPage("/admin");
  return (
    <SignedInShell ctx={ctx}>
      <div className="mx-auto max-w-4xl px-4 pb-10 pt-14 md:pt-6">
        <p className="text-xs font-medium uppercase tracking-wide text-zinc-600 dark:text-zinc-400">Admin · {ctx.team.name}</p>
        <nav aria-label="Admin sections" className="mt-2 flex gap-1 border-b border-zinc-200 dark:border-zinc-800">
          {SECTIONS.map((s) => (
            <Link key={s.href} href={s.href} className="rounded-t-md px-3 py-2 text-sm hover:bg-zinc-100 dark:hover:bg-zinc-800">
              {s.label}
            </Link>
          ))}
        </nav>
        <div className="pt-6">{children}</div>
      </div>
    </SignedInShell>
  );
}
