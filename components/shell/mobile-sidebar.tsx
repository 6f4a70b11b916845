"use client";
// On narrow screens the sidebar is a drawer behind a "Menu" button; on wide screens it is always shown.
import { useEffect, useState } from "react";
import { usePathname } from "next/navigation";
import { Menu, X } from "lucide-react";

export function SidebarFrame({ children }: { children: React.ReactNode }) {
  const [open, setOpen] = useState(false);
  const pathname = usePathname();
  // eslint-disable-next-line react-hooks/set-state-in-effect -- close the drawer after navigating
  useEffect(() => setOpen(false), [pathname]);
  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        className="fixed left-2 top-2 z-30 rounded-md border border-zinc-300 bg-white p-2 md:hidden dark:border-zinc-700 dark:bg-zinc-900"
        aria-label="Open menu"
        aria-expanded={open}
        aria-controls="sidebar"
      >
        <Menu className="size-4" aria-hidden />
      </button>
      {open && <div className="fixed inset-0 z-30 bg-black/40 md:hidden" onClick={() => setOpen(false)} aria-hidden />}
      <aside
        id="sidebar"
        aria-label="Sidebar"
        className={`fixed inset-y-0 left-0 z-40 flex w-72 flex-col border-r border-zinc-200 bg-zinc-50 transition-transform md:static md:translate-x-0 dark:border-zinc-800 dark:bg-zinc-900 ${open ? "translate-x-0" : "-translate-x-full max-md:invisible"}`}
      >
        <button type="button" onClick={() => setOpen(false)} className="absolute right-2 top-2 rounded-md p-2 md:hidden" aria-label="Close menu">
          <X className="size-4" aria-hidden />
        </button>
        {children}
      </aside>
    </>
  );
}
