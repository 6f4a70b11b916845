// What a refused approval link shows under the layout's reason: the way to the inbox.
import Link from "next/link";

export default function Refused() {
  return (
    <Link href="/admin/approvals" className="text-sm text-accent-text underline">
      Open the Approvals inbox
    </Link>
  );
}
