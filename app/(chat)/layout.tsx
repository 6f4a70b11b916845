import { teamPage } from "@/app/_server/page-guards";
import { SignedInShell } from "./signed-in-shell";

export const dynamic = "force-dynamic";

export default async function ChatLayout({ children }: { children: React.ReactNode }) {
  const ctx = await teamPage("/chat");
  return <SignedInShell ctx={ctx}>{children}</SignedInShell>;
}
