// The frame of the decision page of an approval email's link: a refused link (not a link, someone
// else's, used, expired, the call decided) says why here, above the 403 or 404 the page answers with.
import { MessagesSquare } from "lucide-react";
import { linkState } from "./link-state";

export const metadata = { title: "Decide a tool call · Parley", referrer: "no-referrer" };

export default async function LinkLayout({ children, params }: { children: React.ReactNode; params: Promise<{ token: string }> }) {
  const state = await linkState((await params).token);
  return (
    <main className="flex min-h-dvh justify-center bg-panel px-4 py-10">
      <div className="flex w-full max-w-2xl flex-col gap-4">
        <div className="flex items-center gap-2 text-xl font-semibold">
          <MessagesSquare className="size-6 text-accent-text" aria-hidden /> Parley
        </div>
        <div className="flex flex-col gap-4 rounded-xl border border-line bg-page p-6 shadow-sm">
          <h1 className="text-lg font-semibold">Decide a tool call</h1>
          {!state.ok && state.status !== 401 && (
            <p role="alert" className="rounded-md bg-error-soft px-3 py-2 text-sm text-on-error-soft">
              {state.message}
            </p>
          )}
          {children}
        </div>
      </div>
    </main>
  );
}
