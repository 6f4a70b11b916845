import Link from "next/link";
import { adminPage, orNotFound } from "@/app/_server/page-guards";
import { stdioAllowed } from "@/lib/mcp/config";
import { getServerForAdmin, type McpServerAdminView } from "@/lib/mcp/servers";
import { explainPolicy } from "@/lib/approvals/approval-policy";
import { readRules, ruleLabel } from "@/lib/approvals/approval-rules";
import { ServerApprovalSettings, type ToolApprovalView } from "@/components/admin/mcp-approval-settings";
import {
  addMcpToolRuleAction,
  removeMcpToolRuleAction,
  setMcpApproversAction,
  setMcpServerTimeoutAction,
  setMcpServerTrustAction,
  setMcpToolTimeoutAction,
} from "../approval-actions";
import { FormMessage } from "@/components/ui/field";
import { McpApprovers } from "@/components/admin/mcp-approvers";
import { emailEnabled } from "@/lib/email/mailer";
import { serverApprovers } from "@/lib/notifications/approvers";
import { EnableDeleteControls } from "@/components/admin/enable-delete-controls";
import { McpServerForm } from "@/components/admin/mcp-server-form";
import { McpTestPanel } from "@/components/admin/mcp-test-panel";
import { McpToolsTable } from "@/components/admin/mcp-tools-table";
import { McpDefaultPolicy, McpOnByDefault } from "@/components/admin/mcp-default-policy";
import {
  deleteMcpServerAction,
  setMcpServerEnabledAction,
  setMcpServerOnByDefaultAction,
  setMcpServerPolicyAction,
  setMcpToolPolicyAction,
  testMcpServerAction,
  updateMcpServerAction,
} from "../actions";

export const metadata = { title: "MCP server" };

/** Each tool's effective policy and why, its rules as they read, its own time limit. */
function approvalViews(server: McpServerAdminView): Record<string, ToolApprovalView> {
  return Object.fromEntries(
    server.tools.map((t) => {
      const { policy, why } = explainPolicy({
        toolPolicy: t.policy,
        serverDefault: server.defaultPolicy,
        annotations: t.annotations as { readOnlyHint?: boolean } | null,
        trustReadOnly: server.trustReadOnly,
      });
      return [t.id, { policy, why, rules: readRules(t.rules).map(ruleLabel), decisionTimeoutMin: t.decisionTimeoutMin }];
    }),
  );
}

export default async function McpServerPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<{ created?: string }> }) {
  const { id } = await params;
  const ctx = await adminPage(`/admin/mcp/${id}`);
  const server = await orNotFound(getServerForAdmin(ctx, id));
  const approvers = await serverApprovers(ctx, server.id);
  const created = (await searchParams).created === "1";
  return (
    <div className="flex flex-col gap-10">
      <div>
        <Link href="/admin/mcp" className="text-sm text-accent-text hover:underline">
          ← MCP servers
        </Link>
        <h1 className="mt-2 text-lg font-semibold">{server.name}</h1>
        <FormMessage ok message={created ? "Server added. Test the connection to list its tools." : undefined} className="mt-2" />
      </div>
      <section aria-labelledby="mcp-test-heading">
        <h2 id="mcp-test-heading" className="mb-3 font-semibold">
          Connection
        </h2>
        <McpTestPanel serverId={server.id} test={testMcpServerAction} status={server.status} addedHint={created} />
      </section>
      <section aria-labelledby="mcp-tools-heading">
        <h2 id="mcp-tools-heading" className="mb-3 font-semibold">
          Tools
        </h2>
        <div className="mb-4 flex flex-col gap-4">
          <McpDefaultPolicy serverId={server.id} value={server.defaultPolicy} action={setMcpServerPolicyAction} />
          <McpOnByDefault serverId={server.id} value={server.onByDefault} action={setMcpServerOnByDefaultAction} />
          <ServerApprovalSettings
            serverId={server.id}
            trustReadOnly={server.trustReadOnly}
            decisionTimeoutMin={server.decisionTimeoutMin}
            trustAction={setMcpServerTrustAction}
            timeoutAction={setMcpServerTimeoutAction}
          />
        </div>
        <McpToolsTable
          serverId={server.id}
          tools={server.tools}
          setPolicy={setMcpToolPolicyAction}
          approval={{
            views: approvalViews(server),
            actions: { addRule: addMcpToolRuleAction, removeRule: removeMcpToolRuleAction, setTimeout: setMcpToolTimeoutAction },
          }}
        />
      </section>
      <section aria-labelledby="mcp-approvers-heading" className="max-w-xl">
        <h2 id="mcp-approvers-heading" className="mb-3 font-semibold">
          Approvers
        </h2>
        <McpApprovers serverId={server.id} admins={approvers.admins} named={approvers.named} action={setMcpApproversAction} emailOn={emailEnabled()} />
      </section>
      <section aria-labelledby="mcp-settings-heading" className="max-w-xl">
        <h2 id="mcp-settings-heading" className="mb-3 font-semibold">
          Settings
        </h2>
        <McpServerForm
          action={updateMcpServerAction}
          stdioAllowed={stdioAllowed()}
          submitLabel="Save changes"
          initial={{
            serverId: server.id,
            name: server.name,
            transport: server.transport,
            url: server.url ?? "",
            command: server.command ?? "",
            args: server.args,
            connectTimeoutSec: server.connectTimeoutMs / 1000,
            callTimeoutSec: server.callTimeoutMs / 1000,
            enabled: server.enabled,
            secrets: server.secrets,
            authMode: server.authMode,
            memberHeader: server.memberHeader ?? "",
            oauthScopes: server.oauthScopes ?? "",
            oauthClientId: server.oauthClientId,
          }}
        />
      </section>
      <section aria-labelledby="mcp-danger-heading">
        <h2 id="mcp-danger-heading" className="mb-3 font-semibold">
          Disable or delete
        </h2>
        <EnableDeleteControls
          idField="serverId"
          id={server.id}
          noun="server"
          enabled={server.enabled}
          setEnabled={setMcpServerEnabledAction}
          remove={deleteMcpServerAction}
          confirm={{
            title: `Delete ${server.name}?`,
            description: `Delete ${server.name} and its tool settings? Chats stop offering its tools.`,
            button: "Yes, delete",
          }}
        />
      </section>
    </div>
  );
}
