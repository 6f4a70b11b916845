-- A database as the previous release left it, for the upgrade test (test/upgrade.test.ts).
--
-- Stops at migration 20261126121000_search_vectors (the file is named after it): these INSERTs are
-- valid against the schema of every migration up to and including that one, and no later one. The
-- test applies those migrations to an empty database, loads this file, lets this build's migrator
-- apply the rest, and reads every row back through the app.
--
-- What is in it: team Acme with two members (Ada, admin; Bob, member, who joined through a group
-- rule), a provider and its priced model, an MCP server with two tools (one an admin approves, one
-- with a rule on its arguments), two chats (Ada's, with an earlier version of an answer off the
-- branch; Bob's), text, file, step, source and tool blocks (one call approved with an edited input,
-- one denied with a reason, one waiting for an admin), a citation, two attachments with their bytes
-- in "Attachment"."data" (one of 300,008 bytes: two chunks after 20261127140000_attachment_chunks),
-- four usage records, four budgets and two shares.
--
-- When a release adds migrations: copy this file to <the release's last migration>.sql, change the
-- INSERTs to that schema (same rows, same values: new NOT NULL columns get what the app writes,
-- moved data goes where the migrations put it), and check it loads by running the test. Keep this file
-- while upgrades from its release are supported; the test runs every fixture in this folder.
--
-- Times are fixed (November 2026) and UTC; the test reads them back as written.

-- Members ------------------------------------------------------------------------------------------

INSERT INTO "user" ("id", "name", "email", "emailVerified", "instructions", "createdAt", "updatedAt") VALUES
  ('user_ada', 'Ada', 'ada@example.com', true, 'Answer in short paragraphs.', '2026-11-02 08:00:00', '2026-11-02 08:00:00'),
  ('user_bob', 'Bob', 'bob@example.com', true, NULL, '2026-11-03 08:00:00', '2026-11-03 08:00:00');

INSERT INTO "Team" ("id", "name", "createdAt", "updatedAt") VALUES
  ('team_acme', 'Acme', '2026-11-02 08:00:00', '2026-11-02 08:00:00');

INSERT INTO "Provider" ("id", "teamId", "name", "kind", "baseUrl", "enabled", "origin", "createdAt", "updatedAt") VALUES
  ('prov_acme', 'team_acme', 'Acme gateway', 'openai_compatible', 'https://llm.example.com/v1', true, 'admin', '2026-11-02 08:05:00', '2026-11-02 08:05:00');

INSERT INTO "Model" ("id", "providerId", "modelId", "displayName", "enabled", "toolCalling", "vision", "contextWindow",
                     "providerToolsAllowed", "inputPrice", "cachedInputPrice", "outputPrice", "createdAt", "updatedAt") VALUES
  ('model_main', 'prov_acme', 'acme-large', 'Acme Large', true, 'native', true, 128000, true, 2.5, 1.25, 10, '2026-11-02 08:05:00', '2026-11-02 08:05:00');

UPDATE "Team" SET "defaultModelId" = 'model_main' WHERE "id" = 'team_acme';

INSERT INTO "Membership" ("id", "teamId", "userId", "role", "defaultModelId", "lastToolSelection", "createdAt") VALUES
  ('mem_ada', 'team_acme', 'user_ada', 'admin', NULL, '{"servers": ["srv_files"], "tools": ["tool_write", "tool_delete"]}', '2026-11-02 08:00:00'),
  ('mem_bob', 'team_acme', 'user_bob', 'member', 'model_main', NULL, '2026-11-03 08:00:00');

-- Bob came in through the group rule; the audit event of that sign-in is how
-- 20261127100000_sso_linking tells such memberships apart ("source" = 'sso').
INSERT INTO "SsoRule" ("id", "group", "teamId", "role", "createdAt") VALUES
  ('rule_eng', 'engineering', 'team_acme', 'member', '2026-11-02 09:00:00');

INSERT INTO "AuditEvent" ("id", "teamId", "actorId", "action", "targetType", "targetId", "data", "createdAt") VALUES
  ('audit_bob_joined', 'team_acme', 'user_bob', 'sso.membership', 'user', 'user_bob', '{"from": null, "to": "member"}', '2026-11-03 08:00:00');

-- Tools and their approvals --------------------------------------------------------------------------

INSERT INTO "McpServer" ("id", "teamId", "name", "transport", "url", "defaultPolicy", "enabled", "onByDefault", "authMode",
                         "trustReadOnly", "createdAt", "updatedAt") VALUES
  ('srv_files', 'team_acme', 'Files', 'http', 'https://files.example.com/mcp', 'ask', true, true, 'shared', false, '2026-11-02 08:10:00', '2026-11-02 08:10:00');

INSERT INTO "McpTool" ("id", "serverId", "name", "description", "inputSchema", "enabled", "policy", "rules", "decisionTimeoutMin",
                       "lastSeenAt", "createdAt", "updatedAt") VALUES
  ('tool_write', 'srv_files', 'write_file', 'Write a file',
   '{"type": "object", "properties": {"path": {"type": "string"}, "content": {"type": "string"}}, "required": ["path", "content"]}',
   true, 'ask', '[{"field": "path", "op": "matches", "value": "^/shared/", "then": "admin"}]', NULL,
   '2026-11-20 09:00:00', '2026-11-02 08:10:00', '2026-11-02 08:10:00'),
  ('tool_delete', 'srv_files', 'delete_file', 'Delete a file',
   '{"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}',
   true, 'admin', NULL, 60,
   '2026-11-20 09:00:00', '2026-11-02 08:10:00', '2026-11-02 08:10:00');

-- Chats ----------------------------------------------------------------------------------------------

INSERT INTO "Chat" ("id", "teamId", "userId", "title", "modelId", "toolSelection", "pinnedAt", "createdAt", "updatedAt") VALUES
  ('chat_report', 'team_acme', 'user_ada', 'Q3 report', 'model_main', '{"servers": ["srv_files"], "tools": ["tool_write", "tool_delete"]}',
   '2026-11-20 10:00:00', '2026-11-20 09:00:00', '2026-11-20 09:06:00'),
  ('chat_release', 'team_acme', 'user_bob', 'Release checklist', NULL, NULL, NULL, '2026-11-19 15:00:00', '2026-11-19 15:00:30');

-- Messages in "seq" order (the column numbers them as they are inserted). Ada's chat: a question, two
-- versions of its answer (the first taken off the branch when she regenerated it), a second
-- question, and an answer that waits for an admin.
INSERT INTO "Message" ("id", "chatId", "role", "status", "model", "finishReason", "inputTokens", "outputTokens", "cachedInputTokens",
                       "reasoningTokens", "cost", "parentId", "onBranch", "createdAt", "updatedAt") VALUES
  ('msg_q1', 'chat_report', 'user', 'done', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, true, '2026-11-20 09:00:00', '2026-11-20 09:00:00'),
  ('msg_a1_old', 'chat_report', 'assistant', 'done', 'acme-large', 'stop', 800, 150, 0, 0, 0.0035, 'msg_q1', false, '2026-11-20 09:00:10', '2026-11-20 09:00:30'),
  ('msg_a1', 'chat_report', 'assistant', 'done', 'acme-large', 'stop', 1200, 300, 200, 40, 0.00575, 'msg_q1', true, '2026-11-20 09:01:00', '2026-11-20 09:03:00'),
  ('msg_q2', 'chat_report', 'user', 'done', NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'msg_a1', true, '2026-11-20 09:05:00', '2026-11-20 09:05:00'),
  ('msg_a2', 'chat_report', 'assistant', 'done', 'acme-large', 'tool-calls', 1500, 80, 0, 0, 0.00455, 'msg_q2', true, '2026-11-20 09:05:10', '2026-11-20 09:06:00'),
  ('msg_bq1', 'chat_release', 'user', 'done', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, true, '2026-11-19 15:00:00', '2026-11-19 15:00:00'),
  ('msg_ba1', 'chat_release', 'assistant', 'done', 'acme-large', 'stop', 500, 250, 0, 0, 0.00375, 'msg_bq1', true, '2026-11-19 15:00:10', '2026-11-19 15:00:30');

-- Blocks. Tool blocks carry the MCP tool's metadata in "extras" as a turn stores it.
INSERT INTO "Block" ("id", "messageId", "ordinal", "kind", "status", "text", "mediaType", "url", "name", "createdAt", "updatedAt") VALUES
  ('blk_q1_text', 'msg_q1', 0, 'text', 'done', 'Summarise the attached numbers and save the summary.', NULL, NULL, NULL, '2026-11-20 09:00:00', '2026-11-20 09:00:00'),
  ('blk_q1_notes', 'msg_q1', 1, 'file', 'done', NULL, 'text/plain', '/api/attachments/att_notes', 'notes.txt', '2026-11-20 09:00:00', '2026-11-20 09:00:00'),
  ('blk_q1_chart', 'msg_q1', 2, 'file', 'done', NULL, 'image/png', '/api/attachments/att_chart', 'chart.png', '2026-11-20 09:00:00', '2026-11-20 09:00:00'),
  ('blk_a1_old_text', 'msg_a1_old', 0, 'text', 'done', 'Revenue was 1.2 million in Q3.', NULL, NULL, NULL, '2026-11-20 09:00:10', '2026-11-20 09:00:30'),
  ('blk_a1_step', 'msg_a1', 0, 'step', 'done', NULL, NULL, NULL, NULL, '2026-11-20 09:01:00', '2026-11-20 09:01:00'),
  ('blk_a1_intro', 'msg_a1', 1, 'text', 'done', 'I will save the summary and tidy up.', NULL, NULL, NULL, '2026-11-20 09:01:00', '2026-11-20 09:01:05'),
  ('blk_a1_source', 'msg_a1', 4, 'source', 'url', 'Q3 figures', NULL, 'https://example.com/q3', NULL, '2026-11-20 09:02:30', '2026-11-20 09:02:30'),
  ('blk_a1_done', 'msg_a1', 5, 'text', 'done', 'Saved the summary [1]. The old draft stays, as you asked.', NULL, NULL, NULL, '2026-11-20 09:02:30', '2026-11-20 09:03:00'),
  ('blk_q2_text', 'msg_q2', 0, 'text', 'done', 'Copy the summary to the shared folder.', NULL, NULL, NULL, '2026-11-20 09:05:00', '2026-11-20 09:05:00'),
  ('blk_bq1_text', 'msg_bq1', 0, 'text', 'done', 'What goes in the release notes?', NULL, NULL, NULL, '2026-11-19 15:00:00', '2026-11-19 15:00:00'),
  ('blk_ba1_text', 'msg_ba1', 0, 'text', 'done', 'New features, fixes, and the upgrade steps.', NULL, NULL, NULL, '2026-11-19 15:00:10', '2026-11-19 15:00:30');

-- Approved by Ada with an edited input ("originalInput" is the model's), then run.
INSERT INTO "Block" ("id", "messageId", "ordinal", "kind", "status", "toolCallId", "toolName", "toolSource", "dynamic", "input", "originalInput",
                     "output", "approvalId", "approved", "approvalBy", "decidedById", "decidedAt", "extras", "startedAt", "finishedAt", "createdAt", "updatedAt") VALUES
  ('blk_a1_write', 'msg_a1', 2, 'tool', 'output-available', 'call_write', 'Files__write_file', 'mcp', false,
   '{"path": "/home/ada/q3-summary.md", "content": "Q3 revenue: 1.2M"}',
   '{"path": "/tmp/q3-summary.md", "content": "Q3 revenue: 1.2M"}',
   '{"content": [{"type": "text", "text": "Wrote 16 bytes to /home/ada/q3-summary.md"}], "isError": false}',
   'appr_write', true, 'member', 'user_ada', '2026-11-20 09:02:00',
   '{"toolMetadata": {"source": "mcp", "serverId": "srv_files", "serverName": "Files", "toolName": "write_file", "toolId": "tool_write"}}',
   '2026-11-20 09:02:01', '2026-11-20 09:02:02', '2026-11-20 09:01:10', '2026-11-20 09:02:02');

-- Denied by Ada, as an admin (delete_file is "an admin approves"), with her reason.
INSERT INTO "Block" ("id", "messageId", "ordinal", "kind", "status", "toolCallId", "toolName", "toolSource", "dynamic", "input",
                     "approvalId", "approved", "approvalBy", "decidedById", "decidedAt", "decisionReason", "extras", "createdAt", "updatedAt") VALUES
  ('blk_a1_delete', 'msg_a1', 3, 'tool', 'output-denied', 'call_delete', 'Files__delete_file', 'mcp', false,
   '{"path": "/home/ada/q3-draft.md"}',
   'appr_delete', false, 'admin', 'user_ada', '2026-11-20 09:02:20', 'Keep the draft until the review on Friday.',
   '{"toolMetadata": {"source": "mcp", "serverId": "srv_files", "serverName": "Files", "toolName": "delete_file", "toolId": "tool_delete"}}',
   '2026-11-20 09:01:10', '2026-11-20 09:02:20');

-- Waiting for an admin: write_file's rule matched the path.
INSERT INTO "Block" ("id", "messageId", "ordinal", "kind", "status", "toolCallId", "toolName", "toolSource", "dynamic", "input",
                     "approvalId", "approvalBy", "approvalRule", "extras", "createdAt", "updatedAt") VALUES
  ('blk_a2_write', 'msg_a2', 0, 'tool', 'approval-requested', 'call_share', 'Files__write_file', 'mcp', false,
   '{"path": "/shared/q3-summary.md", "content": "Q3 revenue: 1.2M"}',
   'appr_share', 'admin', 'path matches /^/shared// → an admin approves',
   '{"toolMetadata": {"source": "mcp", "serverId": "srv_files", "serverName": "Files", "toolName": "write_file", "toolId": "tool_write"}}',
   '2026-11-20 09:05:30', '2026-11-20 09:06:00');

INSERT INTO "Citation" ("id", "messageId", "blockId", "ordinal", "url", "title", "snippet", "origin", "createdAt") VALUES
  ('cite_q3', 'msg_a1', 'blk_a1_source', 1, 'https://example.com/q3', 'Q3 figures', 'Revenue rose to 1.2 million.', 'provider_search', '2026-11-20 09:03:00');

-- Attachments, their bytes whole in "data" (20261127140000_attachment_chunks moves them into chunks).
-- chart.png: the PNG signature, then 300,000 bytes (i * i + 7 * i) mod 251 for i = 0, 1, 2, ...
INSERT INTO "Attachment" ("id", "teamId", "userId", "chatId", "messageId", "name", "mediaType", "size", "data", "text", "createdAt") VALUES
  ('att_notes', 'team_acme', 'user_ada', 'chat_report', 'msg_q1', 'notes.txt', 'text/plain', 39,
   convert_to(E'Q3 revenue: €1.2M\nQ4 target: €1.5M\n', 'UTF8'), E'Q3 revenue: €1.2M\nQ4 target: €1.5M\n', '2026-11-20 08:59:00'),
  ('att_chart', 'team_acme', 'user_ada', 'chat_report', 'msg_q1', 'chart.png', 'image/png', 300008,
   '\x89504e470d0a1a0a'::bytea || decode((SELECT string_agg(lpad(to_hex((i * i + 7 * i) % 251), 2, '0'), '' ORDER BY i)
                                          FROM generate_series(0::bigint, 299999) AS i), 'hex'),
   NULL, '2026-11-20 08:59:30');

-- Usage and budgets ----------------------------------------------------------------------------------

INSERT INTO "UsageRecord" ("id", "teamId", "userId", "chatId", "messageId", "providerId", "model", "modelRowId", "inputTokens", "outputTokens",
                           "cachedInputTokens", "reasoningTokens", "cost", "createdAt") VALUES
  ('use_a1_old', 'team_acme', 'user_ada', 'chat_report', 'msg_a1_old', 'prov_acme', 'acme-large', 'model_main', 800, 150, 0, 0, 0.0035, '2026-11-20 09:00:30'),
  ('use_a1', 'team_acme', 'user_ada', 'chat_report', 'msg_a1', 'prov_acme', 'acme-large', 'model_main', 1200, 300, 200, 40, 0.00575, '2026-11-20 09:03:00'),
  ('use_a2', 'team_acme', 'user_ada', 'chat_report', 'msg_a2', 'prov_acme', 'acme-large', 'model_main', 1500, 80, 0, 0, 0.00455, '2026-11-20 09:06:00'),
  ('use_ba1', 'team_acme', 'user_bob', 'chat_release', 'msg_ba1', 'prov_acme', 'acme-large', 'model_main', 500, 250, 0, 0, 0.00375, '2026-11-19 15:00:30');

INSERT INTO "Budget" ("id", "teamId", "scope", "userId", "modelRowId", "metric", "limit", "createdAt", "updatedAt") VALUES
  ('bud_team', 'team_acme', 'team', NULL, NULL, 'cost', 25, '2026-11-02 09:00:00', '2026-11-02 09:00:00'),
  ('bud_default', 'team_acme', 'member_default', NULL, NULL, 'tokens', 50000, '2026-11-02 09:01:00', '2026-11-02 09:01:00'),
  ('bud_bob', 'team_acme', 'member', 'user_bob', NULL, 'tokens', 100000, '2026-11-02 09:02:00', '2026-11-02 09:02:00'),
  ('bud_model', 'team_acme', 'model', NULL, 'model_main', 'cost', 10, '2026-11-02 09:03:00', '2026-11-02 09:03:00');

-- Shares: Ada's chat with Bob (read-only), Bob's with the whole team (can continue).
INSERT INTO "ChatShare" ("id", "chatId", "userId", "canContinue", "createdById", "createdAt") VALUES
  ('share_report_bob', 'chat_report', 'user_bob', false, 'user_ada', '2026-11-20 09:10:00'),
  ('share_release_team', 'chat_release', NULL, true, 'user_bob', '2026-11-19 15:05:00');
