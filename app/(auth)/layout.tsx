import { MessagesSquare } from "lucide-react";

export default function AuthLayout({ children }: { children: React.ReactNode }) {
  return (
    <main className="flex min-h-dvh items-center justify-center bg-panel px-4 py-10">
      <div className="w-full max-w-sm">
        <div className="mb-6 flex items-center justify-center gap-2 text-xl font-semibold">
          <MessagesSquare className="size-6 text-accent-text" aria-hidden /> Parley
        </div>
        <div className="rounded-xl border border-line bg-page p-6 shadow-sm">{children}</div>
      </div>
    </main>
  );
}
