// The page of the MCP Apps view of our test server's `show_card` tool (e2e/mcp-test-server.mjs). It
// speaks the MCP Apps protocol over raw postMessage (JSON-RPC, as the spec writes it): ui/initialize,
// then shows the tool input and result it is sent (and the host's theme, again when it changes), and has buttons that send a message, call a tool and
// open a link through the host. On load it tries to reach Parley (the parent's document, the cookies,
// storage, a fetch of /api/chats with credentials) and prints what happened.
export const CARD_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Card</title>
<style>
  body { font: 14px system-ui, sans-serif; margin: 8px; color: #111; background: #fff; }
  button { font: inherit; margin: 2px 4px 2px 0; padding: 4px 8px; color: #111; background: #eee; border: 1px solid #555; border-radius: 4px; }
  pre { white-space: pre-wrap; margin: 4px 0; }
</style></head>
<body>
<h1 style="font-size:16px;margin:0 0 4px">Test card</h1>
<p id="host">Host: (not connected)</p>
<p id="input">Input: (waiting)</p>
<p id="result">Result: (waiting)</p>
<pre id="probe">Probe: running</pre>
<button id="send" type="button">Send a message</button>
<button id="call" type="button">Call a tool</button>
<button id="link" type="button">Open a link</button>
<p id="reply" aria-live="polite" style="min-height:4.5em"></p>
<script>
  let nextId = 1;
  const pending = new Map();
  const show = (id, text) => { document.getElementById(id).textContent = text; grow(); };
  const post = (m) => parent.postMessage(Object.assign({ jsonrpc: "2.0" }, m), "*");
  const request = (method, params) => new Promise((resolve, reject) => { const id = nextId++; pending.set(id, { resolve, reject }); post({ id, method, params }); });
  const notify = (method, params) => post({ method, params });
  let connected = false;
  const grow = () => { if (connected) notify("ui/notifications/size-changed", { height: document.documentElement.scrollHeight }); };
  window.addEventListener("message", (e) => {
    if (e.source !== parent) return;
    const m = e.data;
    if (!m || m.jsonrpc !== "2.0") return;
    if (m.id !== undefined && !m.method && pending.has(m.id)) {
      const p = pending.get(m.id);
      pending.delete(m.id);
      return m.error ? p.reject(new Error(m.error.message)) : p.resolve(m.result);
    }
    if (m.method === "ui/notifications/tool-input") show("input", "Input: " + JSON.stringify(m.params.arguments));
    if (m.method === "ui/notifications/tool-result") show("result", "Result: " + (m.params.content || []).map((c) => c.text).join(" "));
    if (m.method === "ui/notifications/host-context-changed" && m.params.theme) show("host", "Host: Parley, theme " + m.params.theme);
    if (m.id !== undefined && m.method) post({ id: m.id, result: {} }); // ping, teardown
  });
  const probe = [];
  try { probe.push("parent.document: " + (parent.document.title !== undefined ? "READ" : "none")); } catch (e) { probe.push("parent.document: blocked"); }
  try { probe.push("cookie: " + (document.cookie ? "READ" : "empty")); } catch (e) { probe.push("cookie: blocked"); }
  try { probe.push("storage: " + (localStorage.length >= 0 ? "READ" : "none")); } catch (e) { probe.push("storage: blocked"); }
  fetch("/api/chats", { credentials: "include" })
    .then((r) => r.text().then(() => probe.push("fetch: READ " + r.status)), () => probe.push("fetch: blocked"))
    .finally(() => show("probe", "Probe: " + probe.join("; ")));
  request("ui/initialize", { appInfo: { name: "parley-test-card", version: "1.0.0" }, appCapabilities: {}, protocolVersion: "2026-01-26" }).then((r) => {
    connected = true;
    notify("ui/notifications/initialized", {});
    show("host", "Host: " + r.hostInfo.name + ", theme " + r.hostContext.theme);
  });
  document.getElementById("send").onclick = () =>
    request("ui/message", { role: "user", content: [{ type: "text", text: "Apps: the card says hello" }] }).then(
      (r) => show("reply", "message: " + (r.isError ? "refused" : "sent")),
      (e) => show("reply", "message error: " + e.message),
    );
  document.getElementById("call").onclick = () =>
    request("tools/call", { name: "card_stamp", arguments: { note: "from the app" } }).then(
      (r) => show("reply", "tool: " + (r.isError ? "error " : "") + (r.content || []).map((c) => c.text).join(" ")),
      (e) => show("reply", "tool error: " + e.message),
    );
  document.getElementById("link").onclick = () =>
    request("ui/open-link", { url: "https://example.com/from-the-app" }).then(
      (r) => show("reply", "link: " + (r.isError ? "refused" : "opened")),
      (e) => show("reply", "link error: " + e.message),
    );
</script>
</body></html>`;
