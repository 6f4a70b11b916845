import { adminPage } from "@/app/_server/page-guards";
import { isInstanceAdmin } from "@/lib/teams/instance-admin";
import { AdminTabs } from "@/components/admin/admin-tabs";
import { SignedInShell } from "../(chat)/signed-in-shell";

export const dynamic = "force-dynamic";

const SECTIONS = [
  { href: "/admin/approvals", label: "Approvals" },
  { href: "/admin/members", label: "Members" },
  { href: "/admin/providers", label: "Providers" },
  { href: "/admin/mcp", label: "MCP servers" },
  { href: "/admin/knowledge", label: "Knowledge" },
  { href: "/admin/usage", label: "Usage" },
  { href: "/admin/notifications", label: "Notifications" },
  { href: "/admin/audit", label: "Audit log" },
];

export default async function AdminLayout({ children }: { children: React.ReactNode }) {
  const ctx = await adminPage("/admin");
  const sections = (await isInstanceAdmin(ctx.user.id)) ? [...SECTIONS, { href: "/admin/sign-in", label: "Sign-in" }] : SECTIONS;
  return (
    <SignedInShell ctx={ctx}>
      <div className="mx-auto max-w-4xl px-4 pb-10 pt-14 md:pt-6">
        <p className="text-xs font-medium uppercase tracking-wide text-subtle">Admin · {ctx.team.name}</p>
        <AdminTabs sections={sections} />
        <div className="pt-6">{children}</div>
      </div>
    </SignedInShell>
  );
}
