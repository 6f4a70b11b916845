import Link from "next/link";

export default function NotFound() {
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-3 p-8 text-center">
      <h1 className="text-xl font-semibold">Not found</h1>
      <p className="text-sm text-subtle">There is nothing here, or it belongs to a team you are not in.</p>
      <Link href="/chat" className="text-sm text-accent-text underline">
        Back to your chats
      </Link>
    </main>
  );
}
