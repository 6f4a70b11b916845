"use client";
// Light / dark switch, remembered in a cookie so the server renders the right theme.
import { Moon, Sun } from "lucide-react";
import { Button } from "../ui/button";
import { Tooltip } from "../ui/tooltip";

export function ThemeToggle() {
  function toggle() {
    const root = document.documentElement;
    const dark = !root.classList.contains("dark");
    root.classList.toggle("dark", dark);
    root.dataset.theme = dark ? "dark" : "light";
    document.cookie = `parley_theme=${dark ? "dark" : "light"}; path=/; max-age=31536000; samesite=lax`;
  }
  return (
    <Tooltip content="Toggle dark mode">
      <Button variant="ghost" size="icon" onClick={toggle} aria-label="Toggle dark mode" className="text-icon hover:bg-panel-hover">
        <Sun className="hidden size-4 dark:block" aria-hidden />
        <Moon className="size-4 dark:hidden" aria-hidden />
      </Button>
    </Tooltip>
  );
}
