// Admin → Knowledge: the team-wide knowledge bases every member's chats can search, with their
// documents; admins create, rename and delete them and add, replace, re-index and delete documents; and
// whether a knowledge search in the team's chats waits for approval.
import { adminPage } from "@/app/_server/page-guards";
import { KnowledgeBasesPanel } from "@/components/knowledge/knowledge-bases-panel";
import { SearchPolicyForm } from "@/components/knowledge/search-policy-form";
import { knowledgeSearchPolicy } from "@/lib/knowledge/search-policy";
import { knowledgePageData } from "@/lib/knowledge/knowledge-page";

export const metadata = { title: "Knowledge" };

export default async function KnowledgePage() {
  const ctx = await adminPage("/admin/knowledge");
  return (
    <div className="flex flex-col gap-3">
      <h1 className="sr-only">Knowledge</h1>
      <section aria-labelledby="knowledge-heading" className="flex flex-col gap-3">
        <h2 id="knowledge-heading" className="text-lg font-semibold">
          Team-wide knowledge bases
        </h2>
        <p className="text-sm text-subtle">
          Every member&apos;s chats can search these and cite their passages. Documents are read, split into passages and embedded in the background; a
          project&apos;s own knowledge bases are on the project&apos;s page.
        </p>
        <KnowledgeBasesPanel {...await knowledgePageData(ctx, { canCreate: true })} canCreate emptyText="No team-wide knowledge bases yet." />
      </section>
      <section aria-labelledby="knowledge-search-heading" className="flex flex-col gap-3 border-t border-line pt-4">
        <h2 id="knowledge-search-heading" className="text-lg font-semibold">
          Searching in chats
        </h2>
        <SearchPolicyForm teamId={ctx.team.id} policy={await knowledgeSearchPolicy(ctx.team.id)} />
      </section>
    </div>
  );
}
