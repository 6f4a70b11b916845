// The tool block's faces, one per state a call goes through, as a person reads them: what the header
// says, whether Approve and Deny are offered, the progress, the server's question, the result, the
// coded error, the decision and who took it, and the aborted faces (stopped, interrupted, superseded).
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import type { DynamicToolUIPart } from "ai";
import { describe, expect, it } from "vitest";
import { ApprovalContext } from "./approval";
import { ToolBlock } from "./tool-block";

const mcp = { source: "mcp", serverName: "files", toolName: "delete", toolId: "t1" };

/** The block for `part` in a chat: its state attribute, its text with the tags dropped, and its buttons. */
function face(part: Record<string, unknown>) {
  const block = createElement(ToolBlock, {
    part: { type: "dynamic-tool", toolName: "files__delete", toolCallId: "c1", toolMetadata: mcp, ...part } as unknown as DynamicToolUIPart,
  });
  // Inside a chat, where decisions can be sent (ApprovalContext).
  const html = renderToString(createElement(ApprovalContext.Provider, { value: () => {} }, block)).replaceAll("<!-- -->", "");
  const text = html
    .replace(/<[^>]+>/g, " ")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ")
    .trim();
  const state = /data-tool-state="([^"]+)"/.exec(html)?.[1];
  const buttons = [...html.matchAll(/<button[^>]*>(.*?)<\/button>/gs)].map((m) => m[1].replace(/<[^>]+>/g, "").trim());
  return { html, text, state, buttons };
}

describe("the tool block", () => {
  it("names the server and the tool while the model is still writing the input", () => {
    const f = face({ state: "input-streaming", input: undefined });
    expect(f.state).toBe("running");
    expect(f.text).toContain("files · delete");
    expect(f.text).toContain("Preparing");
    expect(f.html).not.toContain('role="progressbar"');
  });

  it("offers Approve and Deny while a call waits for the member, with the input open", () => {
    const f = face({ state: "approval-requested", input: { path: "/tmp/a.txt" }, approval: { id: "ap1" } });
    expect(f.state).toBe("approval-requested");
    expect(f.text).toContain("Waiting for approval");
    expect(f.buttons).toEqual(expect.arrayContaining(["Approve", "Deny"]));
    expect(f.text).toContain('"path": "/tmp/a.txt"');
    expect(f.html).toMatch(/<details[^>]*open/);
  });

  it("offers no decision to the member when an admin decides, and says so with the rule that asked", () => {
    const f = face({ state: "approval-requested", input: { path: "/x" }, approval: { id: "ap1", by: "admin", rule: "Deletes need an admin" } });
    expect(f.text).toContain("Waiting for an admin");
    expect(f.text).toContain("Asked by the rule “Deletes need an admin”.");
    expect(f.buttons).not.toContain("Approve");
    expect(f.buttons).not.toContain("Deny");
  });

  it("says who approved and that the call runs, once approved", () => {
    const f = face({ state: "approval-responded", input: { path: "/x" }, approval: { id: "ap1", approved: true } });
    expect(f.state).toBe("running");
    expect(f.text).toContain("Approved by you. Running…");
    expect(f.buttons).not.toContain("Approve");
  });

  it("shows a running call's progress, and a server's question as a form", () => {
    const progress = face({
      state: "output-available",
      preliminary: true,
      input: {},
      output: { running: true, progress: { progress: 2, total: 5, message: "copying" } },
    });
    expect(progress.state).toBe("running");
    expect(progress.text).toContain("Running");
    expect(progress.text).toContain("2 of 5 · copying");
    expect(progress.html).toContain('aria-valuenow="2"');

    const elicitation = {
      id: "e1",
      mode: "form",
      message: "Which folder?",
      fields: [{ key: "folder", label: "Folder", required: true, secretLike: false, kind: "string" }],
      expiresAt: new Date(Date.now() + 60_000).toISOString(),
    };
    const asking = face({ state: "output-available", preliminary: true, input: {}, output: { running: true, elicitation } });
    expect(asking.text).toContain("Waiting for your answer");
    expect(asking.text).toContain("Which folder?");
    expect(asking.buttons).toContain("Submit");
  });

  it("shows the result with who approved it (an admin by name)", () => {
    const f = face({
      state: "output-available",
      input: { path: "/x" },
      output: { content: [{ type: "text", text: "Deleted /x." }] },
      approval: { id: "ap1", approved: true, by: "admin", decidedBy: "Ana" },
    });
    expect(f.state).toBe("output-available");
    expect(f.text).toContain("Done");
    expect(f.text).toContain("Deleted /x.");
    expect(f.text).toContain("Approved by Ana (admin).");
  });

  it("shows a failure's code apart from its message", () => {
    const f = face({ state: "output-error", input: {}, errorText: "[ERROR:Timeout] The tool did not answer within 0.6 s." });
    expect(f.state).toBe("output-error");
    expect(f.text).toContain("Error");
    expect(f.html).toContain('data-error-code="Timeout"');
    expect(f.text).toContain("Timeout The tool did not answer within 0.6 s.");
  });

  it("shows an aborted call as stopped, interrupted or not run, not as an error", () => {
    const cases = [
      ["Stopped while it ran; it may not have finished.", "Stopped"],
      ["Stopped before it ran.", "Stopped before it ran"],
      ["Interrupted: the server stopped while this call ran; it may not have finished.", "Interrupted"],
      ["Not run: a new message was sent.", "Not run"],
    ];
    for (const [message, label] of cases) {
      const f = face({ state: "output-error", input: {}, errorText: `[ERROR:Aborted] ${message}` });
      expect(f.state).toBe("aborted");
      expect(f.text).toContain(`${label} `);
      expect(f.text).toContain(message);
      expect(f.html).not.toContain("data-error-code");
    }
  });

  it("shows a denial with the reason, and a call a rule let run without asking", () => {
    const denied = face({ state: "output-denied", input: {}, approval: { id: "ap1", approved: false, reason: "Not now" } });
    expect(denied.state).toBe("output-denied");
    expect(denied.text).toContain("Denied by you. Reason: Not now");

    const auto = face({ state: "output-available", input: {}, output: { ok: true }, autoRule: "Reads are fine" });
    expect(auto.text).toContain("Ran without asking: rule “Reads are fine”.");
  });

  it("a knowledge search: its query in the header, each passage found with its number and a link to it in the viewer", () => {
    const url = "/knowledge/documents/d1?v=1&from=120&to=180";
    const f = face({
      toolName: "knowledge_search",
      toolMetadata: { source: "knowledge", toolName: "Search knowledge" },
      state: "output-available",
      input: { query: "parental leave" },
      output: {
        knowledge: true,
        query: "parental leave",
        degraded: "Searched by words only: the embedding model did not answer.",
        passages: [{ n: 1, documentId: "d1", documentName: "handbook.pdf", page: 2, headingPath: ["Leave"], url, text: "Sixteen weeks at full pay." }],
      },
    });
    expect(f.text).toContain("Search knowledge · “parental leave”");
    expect(f.text).toContain("[1] handbook.pdf, page 2 Leave Sixteen weeks at full pay.");
    expect(f.text).toContain("Searched by words only");
    expect(f.html).toContain(`href="${url.replaceAll("&", "&amp;")}"`);
    expect(f.html).not.toContain("&quot;knowledge&quot;:true"); // not the JSON
  });
});
