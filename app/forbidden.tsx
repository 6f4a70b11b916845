import Link from "next/link";

export default function Forbidden() {
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-3 p-8 text-center">
      <h1 className="text-xl font-semibold">Admins only</h1>
      <p className="text-sm text-subtle">This page is for the admins of your team.</p>
      <Link href="/chat" className="text-sm text-accent-text underline">
        Back to your chats
      </Link>
    </main>
  );
}
