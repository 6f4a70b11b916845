"use client";
// "Export" in a chat's header: the chat as a Markdown or JSON download (GET /api/chat/<id>/export).
import { Download } from "lucide-react";
import { Button } from "../ui/button";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from "../ui/dropdown-menu";

export function ExportMenu({ chatId }: { chatId: string }) {
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button size="sm" variant="ghost" className="gap-1" aria-label="Export">
          <Download className="size-4" aria-hidden /> <span className="hidden sm:inline">Export</span>
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent>
        <DropdownMenuItem asChild>
          <a href={`/api/chat/${chatId}/export?format=md`} download>
            Markdown (.md)
          </a>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <a href={`/api/chat/${chatId}/export?format=json`} download>
            JSON (.json)
          </a>
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
