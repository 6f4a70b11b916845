"use client";
// The admin sections as tabs of links: the one you are on is marked (aria-current="page", and an
// underline and bold text that do not rely on colour alone).
import Link from "next/link";
import { usePathname } from "next/navigation";
import { cn } from "../ui/cn";

export type AdminSection = { href: string; label: string };

export function AdminTabs({ sections }: { sections: AdminSection[] }) {
  const pathname = usePathname();
  return (
    <nav aria-label="Admin sections" className="mt-2 flex flex-wrap gap-1 border-b border-line">
      {sections.map((s) => {
        const current = pathname === s.href || pathname.startsWith(`${s.href}/`);
        return (
          <Link
            key={s.href}
            href={s.href}
            aria-current={current ? "page" : undefined}
            className={cn(
              "-mb-px rounded-t-md border-b-2 px-3 py-2 text-sm hover:bg-raised",
              current ? "border-accent-text font-semibold text-emphasis" : "border-transparent text-soft",
            )}
          >
            {s.label}
          </Link>
        );
      })}
    </nav>
  );
}
