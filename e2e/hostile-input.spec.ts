// Hostile input gets a 4xx, never a 5xx, and writes nothing. Against the running production build,
// signed in as a member, as an admin and signed out: every server action of the build (enumerated
// from its server reference manifest) and every route handler, with a fixed corpus (NUL bytes,
// broken %-encoding, bodies over 1 MB, deep nesting, wrong types, forged ids, another user's ids)
// and seeded fast-check inputs. What users can see (chats, messages, members, invites, MCP servers,
// always-allowed tools, providers, the audit log) is the same before and after.
import { expect, request as playwrightRequest, test, type APIRequestContext, type Page } from "@playwright/test";
import { adminState, createInvite, joinWithNewAccount } from "./helpers";
import { inOwnTeam } from "./own-team";
import {
  AUTH_GETS,
  AUTH_POSTS,
  FIELD_NAMES,
  FORGED_ID,
  HOSTILE_SEGMENTS,
  MALFORMED_MULTIPART,
  authBodies,
  INVALID_STRINGS,
  ODD_STRINGS,
  generated,
  hostileActionBodies,
  jsonBody,
  multipart,
  multipartAction,
  serverActions,
} from "./hostile";

test.use({ storageState: inOwnTeam });
test.setTimeout(Number(process.env.FUZZ_TIMEOUT_MS || 180_000));

type Req = { who: string; label: string; method: string; path: string; headers?: Record<string, string>; body?: string | Buffer };
type Result = Req & { status: number };

/** Actions that act without any input (signing out, an admin's test email): only bodies refused before they run. */
const NO_INPUT = /^(signOutAction|sendTestEmailAction)$/;
/** Actions a member may run that create or set something from free text (a team's name, their own name or instructions): only invalid values. */
const CREATES_FROM_NAME = /^(createTeamAction|renameAction|instructionsAction)$/;

test("hostile requests to every route and action get 4xx, never 5xx, and write nothing", async ({ page, browser, baseURL }) => {
  // The cast: the admin (signed in), a member of the same team, and a visitor.
  const invite = await createInvite(page, "member");
  const joined = await joinWithNewAccount(browser, invite);
  const admin = await playwrightRequest.newContext({ baseURL, storageState: adminState() });
  const member = await playwrightRequest.newContext({ baseURL, storageState: await joined.context.storageState() });
  const anonymous = await playwrightRequest.newContext({ baseURL });
  const adminChat = (await (await admin.post("/api/chats")).json()).id as string;
  const memberChat = (await (await member.post("/api/chats")).json()).id as string;
  await page.goto(`/chat/${adminChat}`);
  const teamId = await page.getByLabel("Team").inputValue();
  const before = await snapshot(admin, member, page, { teamId, adminChat, memberChat });

  const actions = serverActions();
  expect(actions.length).toBeGreaterThan(20);
  const requests: Req[] = [];
  const as = { member, admin, anonymous } as const;

  // Server actions. Bodies refused before any action runs (the same check for all) go to three
  // actions each, in turn; what reaches an action's own entry goes to every action: as a member with
  // everything, as the admin and signed out with what must be refused.
  const actionBodies = hostileActionBodies([adminChat, teamId]);
  const atEntry = /^(no args|null args|numbers|state and|forged id|another's id|100k string)/;
  for (const [i, action] of actions.entries()) {
    const call = (who: keyof typeof as, label: string, body: string | Buffer, contentType = "text/plain;charset=UTF-8") =>
      requests.push({
        who,
        label: `${action.name}: ${label}`,
        method: "POST",
        path: action.page,
        headers: { "next-action": action.id, accept: "text/x-component", "content-type": contentType },
        body,
      });
    const form = (who: keyof typeof as, label: string, fields: [string, string][], root?: string, file?: Buffer) => {
      const { body, contentType } = multipartAction(fields, root, file);
      call(who, label, body, contentType);
    };
    const early = actionBodies.filter((b, j) => !atEntry.test(b.label) && j % 10 === i % 10);
    // Sign-out takes any FormData, and React reads '["$K1"]' (a missing FormData reference) as an empty
    // one: sent as the member, it signs the cast out. Its bodies go as the visitor, who has no session.
    for (const b of early) call(NO_INPUT.test(action.name) ? "anonymous" : "member", b.label, b.body);
    if (i % 10 === 0) {
      form("member", "a file over 1 MB", [], undefined, Buffer.alloc(1_100_000, 97));
      form("member", "NUL in a field name", [["na\0me", "x"]]);
      call("member", "broken multipart", Buffer.from('--x\r\nContent-Disposition: form-data; name="0"\r\n\r\n[1]'), "multipart/form-data; boundary=y");
    }
    if (NO_INPUT.test(action.name)) continue;

    for (const b of actionBodies.filter((b) => atEntry.test(b.label))) call("member", b.label, b.body);
    for (const s of INVALID_STRINGS)
      form("member", `every field ${JSON.stringify(s.slice(0, 8))}…`, s.length > 1000 ? [["name", s]] : FIELD_NAMES.map((n) => [n, s]));
    if (!CREATES_FROM_NAME.test(action.name)) {
      for (const s of [ODD_STRINGS[2 + (i % 5)], ODD_STRINGS[7 + (i % 9)]])
        form("member", `odd ${JSON.stringify(s.slice(0, 12))}`, [
          ...FIELD_NAMES.map((n): [string, string] => [n, s]),
          ["serverId", adminChat],
          ["providerId", FORGED_ID],
        ]);
    }
    form("member", "a file", [["name", "x"]], undefined, Buffer.from("file"));
    form("member", "root is not a form reference", [["name", "x"]], '[{"ok":false},"not a form"]');
    const gen = generated(0x5eed + i, 2);
    for (const args of gen.args) call("member", "generated arguments", jsonBody(args));
    if (!CREATES_FROM_NAME.test(action.name)) form("member", "generated form", gen.forms[0]);

    form(
      "admin",
      "every field NUL",
      FIELD_NAMES.map((n) => [n, "a\0b"]),
    );
    // (Empty model fields would be a valid "no default model": forged ones must be refused.)
    form(
      "admin",
      "every id forged, nothing else",
      ["serverId", "toolId", "providerId", "modelRowId", "inviteId", "membershipId", "defaultModelId", "fallbackModelId"].map((n) => [n, FORGED_ID]),
    );
    for (const b of hostileActionBodies([memberChat]).filter((b) => /state and|another's/.test(b.label))) call("admin", b.label, b.body);
    call("anonymous", "state and a string for the form", jsonBody([{ ok: false }, "x"]));
  }
  // Forms posted without JavaScript (no Next-Action header): Next decodes the `$ACTION_…` fields itself.
  const mpa = (label: string, fields: [string, string][]) => {
    const { body, contentType } = multipart(fields);
    requests.push({ who: "member", label: `no-JS form: ${label}`, method: "POST", path: "/chat", headers: { "content-type": contentType }, body });
  };
  const someId = actions[0].id;
  mpa("unknown action id", [["$ACTION_ID_" + "ab".repeat(21), ""]]);
  mpa("malformed action id", [["$ACTION_ID_zz", ""]]);
  mpa("bound args not JSON", [
    ["$ACTION_REF_1", ""],
    ["$ACTION_1:0", "not json"],
  ]);
  mpa("bound args of unknown action", [
    ["$ACTION_REF_1", ""],
    ["$ACTION_1:0", JSON.stringify({ id: "ab".repeat(21), bound: null })],
  ]);
  mpa("bound args missing part", [
    ["$ACTION_REF_1", ""],
    ["$ACTION_1:0", JSON.stringify({ id: someId, bound: "$@1" })],
  ]);
  mpa("bound args deep", [
    ["$ACTION_REF_1", ""],
    ["$ACTION_1:0", "[".repeat(3000) + "]".repeat(3000)],
  ]);
  mpa("action key only", [["$ACTION_KEY", "k0"]]);
  mpa("plain multipart to a page", [["name", "x"]]);

  // Route handlers: hostile ids in the path, hostile bodies on every JSON route, hostile queries.
  const idRoutes: [string, (id: string) => string][] = [
    ["GET", (id) => `/api/chat/${id}/messages`],
    ["PATCH", (id) => `/api/chat/${id}`],
    ["DELETE", (id) => `/api/chat/${id}`],
    ["POST", (id) => `/api/chat/${id}/stop`],
    ["GET", (id) => `/api/chat/${id}/stream`],
    ["GET", (id) => `/api/chat/${id}/tools`],
    ["PUT", (id) => `/api/chat/${id}/tools`],
    ["GET", (id) => `/api/chat/${id}/app?call=call_1`],
    ["GET", (id) => `/api/mcp/servers/${id}`],
    ["GET", (id) => `/api/teams/${id}/invites`],
    ["GET", (id) => `/api/teams/${id}/members`],
    ["DELETE", (id) => `/api/teams/${teamId}/members/${id}`],
    ["GET", (id) => `/api/knowledge-bases/${id}/documents`],
    ["POST", (id) => `/api/knowledge-bases/${id}/documents`],
    ["PATCH", (id) => `/api/knowledge-bases/${id}`],
    ["DELETE", (id) => `/api/knowledge-bases/${id}`],
    ["PUT", (id) => `/api/knowledge-documents/${id}`],
    ["DELETE", (id) => `/api/knowledge-documents/${id}`],
    ["POST", (id) => `/api/knowledge-documents/${id}/reindex`],
    ["GET", (id) => `/api/knowledge-documents/${id}/file`],
    ["GET", (id) => `/api/chat/${id}/knowledge`],
    ["PUT", (id) => `/api/chat/${id}/knowledge`],
    ["GET", (id) => `/knowledge/documents/${id}?v=1&from=0&to=10`],
    ["GET", (id) => `/api/teams/${id}/knowledge-search`],
    ["GET", (id) => `/chat/${id}`],
    ["GET", (id) => `/admin/mcp/${id}`],
    ["GET", (id) => `/admin/providers/${id}`],
    ["GET", (id) => `/invite/${id}`],
  ];
  for (const [method, path] of idRoutes) {
    for (const seg of HOSTILE_SEGMENTS) requests.push({ who: "member", label: `path ${seg.slice(0, 20)}`, method, path: path(seg) });
    requests.push({ who: "member", label: "another user's chat", method, path: path(adminChat) });
    requests.push({ who: "admin", label: "another user's chat", method, path: path(memberChat) });
  }
  for (const q of ["%00", "%E0%A4%A", "-1", "1e309", "x".repeat(5000), "1&before=2"]) {
    requests.push({ who: "member", label: `knowledge query ${q.slice(0, 12)}`, method: "GET", path: `/api/knowledge-bases?projectId=${q}` });
    requests.push({ who: "member", label: `new chat knowledge ${q.slice(0, 12)}`, method: "GET", path: `/api/knowledge-bases/new-chat?projectId=${q}` });
    requests.push({ who: "member", label: `passage ${q.slice(0, 12)}`, method: "GET", path: `/knowledge/documents/${FORGED_ID}?v=${q}&from=${q}&to=${q}` });
    requests.push({ who: "member", label: `query ${q.slice(0, 12)}`, method: "GET", path: `/api/chat/${memberChat}/messages?before=${q}` });
    requests.push({ who: "anonymous", label: `next ${q.slice(0, 12)}`, method: "GET", path: `/sign-in?next=${q}` });
    requests.push({ who: "member", label: `app call ${q.slice(0, 12)}`, method: "GET", path: `/api/chat/${memberChat}/app?call=${q}` });
  }
  const jsonRoutes: [string, string, (keyof typeof as)[]][] = [
    ["POST", "/api/chat", ["member", "admin", "anonymous"]],
    ["PATCH", `/api/chat/${adminChat}`, ["member"]],
    ["PATCH", `/api/chat/${memberChat}`, ["admin"]],
    ["PUT", `/api/chat/${adminChat}/tools`, ["member"]],
    ["PUT", `/api/chat/${adminChat}/knowledge`, ["member"]],
    ["PUT", `/api/chat/${memberChat}/knowledge`, ["member"]],
    ["PUT", `/api/teams/${teamId}/knowledge-search`, ["member", "admin"]],
    ["POST", `/api/chat/${memberChat}/app/call`, ["member", "admin", "anonymous"]],
    ["POST", "/api/tools/preferences", ["member", "admin"]],
    ["POST", "/api/knowledge-bases", ["member", "admin", "anonymous"]],
    ["POST", `/api/knowledge-bases/${FORGED_ID}/documents`, ["member", "admin", "anonymous"]],
    ["POST", `/api/teams/${teamId}/invites`, ["member", "admin"]],
    ["PATCH", `/api/teams/${teamId}/members/${FORGED_ID}`, ["member", "admin"]],
    ["POST", "/api/auth/sign-in/email", ["anonymous"]],
    ["POST", "/api/auth/sign-up/email", ["anonymous"]],
  ];
  const chatBody = (over: object) => JSON.stringify({ id: adminChat, message: { role: "user", parts: [{ type: "text", text: "hi" }] }, ...over });
  const bodies: [string, string | Buffer, string | undefined][] = [
    ["text/plain form", chatBody({}), "text/plain"],
    ["urlencoded", "id=x&message=y", "application/x-www-form-urlencoded"],
    ["no content type", chatBody({}), undefined],
    ["broken JSON", '{"id": "x", ', "application/json"],
    ["deep nesting", "[".repeat(20_000) + "]".repeat(20_000), "application/json"],
    ["deep object", '{"a":'.repeat(2000) + "1" + "}".repeat(2000), "application/json"],
    [
      "NUL in every string",
      JSON.stringify({ id: "a\0", title: "t\0", toolId: "\0", role: "member\0", days: 7, email: "a\0@b.c", password: "p\0" }),
      "application/json",
    ],
    ["NUL in a message", chatBody({ message: { role: "user", parts: [{ type: "text", text: "a\0b" }] } }), "application/json"],
    ["wrong types", JSON.stringify({ id: 1, message: "x", title: [], toolId: {}, alwaysAllow: "yes", role: 7, servers: "all", email: 5 }), "application/json"],
    ["over 1 MB", chatBody({ message: { role: "user", parts: [{ type: "text", text: "x".repeat(1_100_000) }] } }), "application/json"],
    ["invalid UTF-8", Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]), "application/json"],
    [
      "forged ids",
      JSON.stringify({
        id: FORGED_ID,
        message: { role: "user", parts: [{ type: "text", text: "hi" }] },
        toolId: FORGED_ID,
        alwaysAllow: true,
        servers: [FORGED_ID],
        tools: [FORGED_ID],
      }),
      "application/json",
    ],
    ...generated(0xc0ffee, 4).jsonBodies.map((v): [string, string, string] => ["generated JSON", JSON.stringify(v), "application/json"]),
  ];
  for (const [method, path, whos] of jsonRoutes)
    for (const who of whos)
      for (const [label, body, type] of bodies) requests.push({ who, label, method, path, body, headers: type ? { "content-type": type } : {} });

  // Send them all, eight at a time; time the lot.
  const started = Date.now();
  const results = await pool(requests, 8, (r) => sendHostile(as, r));
  const seconds = (Date.now() - started) / 1000;
  test.info().annotations.push({ type: "fuzz", description: `${results.length} requests in ${seconds.toFixed(1)} s` });
  console.log(`[fuzz] ${results.length} hostile requests (${actions.length} actions) in ${seconds.toFixed(1)} s`);

  const failures = results.filter((r) => r.status >= 500).map((r) => `${r.status} ${r.who} ${r.method} ${r.path.slice(0, 80)} — ${r.label}`);
  expect(failures).toEqual([]);
  // The ones that must be refused were refused, with the right status.
  const wrong = (pick: (r: Result) => boolean, ok: (status: number) => boolean) =>
    results.filter((r) => pick(r) && !ok(r.status)).map((r) => `${r.status} ${r.who} ${r.method} ${r.path.slice(0, 60)} — ${r.label}`);
  // (Authorisation comes first: a member posting to an admin route gets 403 before the body is read.)
  expect(
    wrong(
      (r) => /over 1 MB/.test(r.label) && r.who !== "anonymous",
      (s) => s === 413 || s === 403,
    ),
  ).toEqual([]);
  expect(
    wrong(
      (r) => /^(text\/plain form|urlencoded)$/.test(r.label) && r.path.startsWith("/api/chat"),
      (s) => s === 415 || s === 401,
    ),
  ).toEqual([]);
  expect(
    wrong(
      (r) => /^path %(00|E0|ZZ|C0)/.test(r.label),
      (s) => s === 400,
    ),
  ).toEqual([]);
  expect(
    wrong(
      (r) => r.label === "another user's chat" && /^\/api\/chat\/.+/.test(r.path) && !["PATCH", "PUT"].includes(r.method),
      (s) => s === 404,
    ),
  ).toEqual([]);

  // Nothing was written, as users see it.
  expect(await snapshot(admin, member, page, { teamId, adminChat, memberChat })).toEqual(before);
  // And the cast is still signed in (no hostile request signed anyone out).
  expect((await member.get("/api/chats")).status()).toBe(200);
  expect((await admin.get("/api/chats")).status()).toBe(200);
  await joined.context.close();
});

// better-auth's own endpoints and the multipart decoding of server actions: each malformed request
// is refused with a 4xx (a NUL byte reaching PostgreSQL, or a multipart body Next cannot decode, was a 500).
test("the auth library's endpoints and server actions' malformed multipart bodies get 4xx and write nothing", async ({ page, browser, baseURL }) => {
  const invite = await createInvite(page, "member");
  const joined = await joinWithNewAccount(browser, invite);
  const admin = await playwrightRequest.newContext({ baseURL, storageState: adminState() });
  const member = await playwrightRequest.newContext({ baseURL, storageState: await joined.context.storageState() });
  const anonymous = await playwrightRequest.newContext({ baseURL });
  const adminChat = (await (await admin.post("/api/chats")).json()).id as string;
  const memberChat = (await (await member.post("/api/chats")).json()).id as string;
  await page.goto(`/chat/${adminChat}`);
  const teamId = await page.getByLabel("Team").inputValue();
  const before = await snapshot(admin, member, page, { teamId, adminChat, memberChat });
  const as = { member, admin, anonymous } as const;
  const requests: Req[] = [];

  // The auth library's endpoints that take a body (not those that sign out or end sessions).
  const authPosts = AUTH_POSTS.map((p) => `/api/auth${p}`);
  for (const path of authPosts)
    for (const who of ["member", "anonymous"] as const)
      for (const [label, body] of authBodies())
        requests.push({ who, label: `auth: ${label}`, method: "POST", path, body, headers: { "content-type": "application/json", origin: baseURL! } });
  for (const path of AUTH_GETS) requests.push({ who: "member", label: "auth: NUL in the query", method: "GET", path: `/api/auth${path}` });

  // Every server action, with multipart bodies its decoder cannot read.
  for (const action of serverActions())
    for (const [label, body, contentType] of MALFORMED_MULTIPART)
      requests.push({
        who: "member",
        label: `${action.name}: ${label}`,
        method: "POST",
        path: action.page,
        body,
        headers: { "next-action": action.id, accept: "text/x-component", "content-type": contentType },
      });
  // The same without the Next-Action header (a form posted without JavaScript), where the form cannot
  // be read at all (an empty form with no action fields is a plain POST to the page, which renders it).
  for (const [label, body, contentType] of MALFORMED_MULTIPART.filter(([l]) => !/^(empty multipart|no arguments)/.test(l)))
    requests.push({ who: "member", label: `no-JS form: ${label}`, method: "POST", path: "/chat", body, headers: { "content-type": contentType } });

  const results = await pool(requests, 8, (r) => sendHostile(as, r));
  const not4xx = results.filter((r) => r.status < 400 || r.status >= 500).map((r) => `${r.status} ${r.who} ${r.method} ${r.path.slice(0, 60)} — ${r.label}`);
  expect(not4xx).toEqual([]);

  expect(await snapshot(admin, member, page, { teamId, adminChat, memberChat })).toEqual(before);
  expect((await member.get("/api/chats")).status()).toBe(200);
  expect((await admin.get("/api/chats")).status()).toBe(200);
  await joined.context.close();
});

/** What users see: chats, messages, tool selections, members, invites, servers, preferences, providers, audit. */
async function snapshot(admin: APIRequestContext, member: APIRequestContext, page: Page, ids: { teamId: string; adminChat: string; memberChat: string }) {
  const json = async (ctx: APIRequestContext, path: string) => {
    const res = await ctx.get(path);
    return { status: res.status(), body: await res.json() };
  };
  const text = async (path: string) => {
    await page.goto(path);
    return page.locator("main").innerText();
  };
  return {
    adminChats: await json(admin, "/api/chats"),
    memberChats: await json(member, "/api/chats"),
    adminMessages: await json(admin, `/api/chat/${ids.adminChat}/messages`),
    memberMessages: await json(member, `/api/chat/${ids.memberChat}/messages`),
    adminTools: await json(admin, `/api/chat/${ids.adminChat}/tools`),
    members: await json(admin, `/api/teams/${ids.teamId}/members`),
    invites: await json(admin, `/api/teams/${ids.teamId}/invites`),
    servers: await json(admin, "/api/mcp/servers"),
    adminPreferences: await json(admin, "/api/tools/preferences"),
    memberPreferences: await json(member, "/api/tools/preferences"),
    providers: await text("/admin/providers"),
    audit: await text("/admin/audit"),
  };
}

/**
 * Sends one hostile request and says what came back: its status, or 599 when no answer came at all.
 * A kept-alive connection the server closed just as the request went out (`socket hang up` before any
 * answer) is tried once more on a new one: the server never saw that request, so it says nothing of it.
 */
async function sendHostile<R extends { who: string; label: string; method: string; path: string; body?: string | Buffer; headers?: Record<string, string> }>(
  as: Record<string, APIRequestContext>,
  r: R,
): Promise<R & { status: number }> {
  for (let attempt = 1; ; attempt++) {
    try {
      const res = await as[r.who].fetch(r.path, {
        method: r.method,
        headers: r.headers,
        data: r.body,
        maxRedirects: 0,
        failOnStatusCode: false,
        timeout: 30_000,
      });
      await res.dispose();
      return { ...r, status: res.status() };
    } catch (err) {
      const message = String(err).split("\n")[0];
      if (attempt === 1 && /socket hang up|ECONNRESET/.test(message)) continue;
      return { ...r, status: 599, label: `${r.label} (${message})` };
    }
  }
}

async function pool<T, R>(items: T[], size: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: size }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]);
        if (process.env.FUZZ_PROGRESS && i % 100 === 0) console.log(`[fuzz] ${i}/${items.length}`);
      }
    }),
  );
  return out;
}
