"use client";
// On wide screens the sidebar is always shown; on narrow ones it is a Sheet (a modal drawer: focus
// trapped, Escape closes) behind a "Menu" button, closed again after navigating (or following a link
// to the page already open, such as New chat from a new chat).
import { useEffect, useState } from "react";
import { usePathname } from "next/navigation";
import { Menu } from "lucide-react";
import { Button } from "../ui/button";
import { Sheet, SheetContent, SheetTitle, SheetTrigger } from "../ui/sheet";

export function SidebarFrame({ children }: { children: React.ReactNode }) {
  const [open, setOpen] = useState(false);
  const pathname = usePathname();
  // eslint-disable-next-line react-hooks/set-state-in-effect -- close the drawer after navigating
  useEffect(() => setOpen(false), [pathname]);
  return (
    <>
      <Sheet open={open} onOpenChange={setOpen}>
        <SheetTrigger asChild>
          <Button variant="secondary" size="icon" className="fixed top-2 left-2 z-30 size-9 md:hidden" aria-label="Open menu">
            <Menu className="size-4" aria-hidden />
          </Button>
        </SheetTrigger>
        <SheetContent
          aria-label="Sidebar"
          aria-describedby={undefined}
          closeLabel="Close menu"
          className="md:hidden"
          onClick={(e) => (e.target as HTMLElement).closest("a[href]") && setOpen(false)}
        >
          <SheetTitle className="sr-only">Menu</SheetTitle>
          {children}
        </SheetContent>
      </Sheet>
      <aside aria-label="Sidebar" className="hidden w-72 flex-col border-r border-line bg-panel md:flex">
        {children}
      </aside>
    </>
  );
}
