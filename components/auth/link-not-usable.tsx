// What a one-time link's page says when the link cannot be used (invalid, used, expired, revoked).
import Link from "next/link";

export function LinkNotUsable({ title, message }: { title: string; message: string }) {
  return (
    <>
      <h1 className="mb-3 text-lg font-semibold">{title}</h1>
      <p role="alert" className="text-sm text-soft">
        {message}
      </p>
      <Link href="/sign-in" className="mt-4 inline-block text-sm text-accent-text underline">
        Go to sign in
      </Link>
    </>
  );
}
