// fetchJson against a stubbed fetch: what it sends, what it returns, and the ApiError of each failure
// (the server's envelope, an answer that is not the envelope, no answer at all).
import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError, fetchJson, serverMessage } from "./fetch-json";

function answer(response: Response | Error) {
  const fetchMock = vi.fn<(url: string, init?: RequestInit) => Promise<Response>>(async () => {
    if (response instanceof Error) throw response;
    return response;
  });
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("fetchJson", () => {
  it("sends a body as JSON and returns the parsed answer", async () => {
    const sent = answer(Response.json({ id: "p1" }, { status: 201 }));
    await expect(fetchJson<{ id: string }>("/api/projects", { method: "POST", body: { name: "Q3" } })).resolves.toEqual({ id: "p1" });
    const [url, init] = sent.mock.calls[0];
    expect(url).toBe("/api/projects");
    expect(init).toMatchObject({ method: "POST", headers: { "content-type": "application/json" }, body: '{"name":"Q3"}' });
  });

  it("sends a GET without a body, with the cache option, and a FormData as it is", async () => {
    const sent = answer(Response.json({ count: 2 }));
    await fetchJson("/api/approvals/count", { cache: "no-store" });
    expect(sent.mock.calls[0][1]).toEqual({ method: "GET", cache: "no-store" });

    const form = new FormData();
    form.append("file", new Blob(["hi"]), "hi.txt");
    const upload = answer(Response.json({ attachment: { id: "a1" } }));
    await fetchJson("/api/attachments", { method: "POST", body: form });
    const init = upload.mock.calls[0][1];
    expect(init?.body).toBe(form);
    expect(init?.headers).toBeUndefined();
  });

  it("returns undefined for an answer without a body", async () => {
    answer(new Response(null, { status: 204 }));
    await expect(fetchJson("/api/attachments/a1", { method: "DELETE" })).resolves.toBeUndefined();
  });

  it("throws the server's refusal with its status, code, message and field errors", async () => {
    answer(Response.json({ error: { code: "InvalidInput", message: "Invalid request.", fields: { name: "Give it a name." } } }, { status: 400 }));
    const err = await failure(fetchJson("/api/projects", { method: "POST", body: {} }));
    expect(err).toMatchObject({ status: 400, code: "InvalidInput", message: "Invalid request.", fields: { name: "Give it a name." } });
    expect(err.fromServer).toBe(true);
    expect(err.unreachable).toBe(false);
    expect(serverMessage(err)).toBe("Invalid request.");
  });

  it("says so plainly when a refusal is not the server's envelope (an HTML error page)", async () => {
    answer(new Response("<html>Bad gateway</html>", { status: 502, headers: { "content-type": "text/html" } }));
    const err = await failure(fetchJson("/api/chats"));
    expect(err).toMatchObject({ status: 502, code: "BadResponse", message: "The server could not answer (HTTP 502)." });
    expect(err.fromServer).toBe(false);
    expect(serverMessage(err)).toBeUndefined();
  });

  it("refuses a 2xx answer that is not JSON", async () => {
    answer(new Response("<html>sign in</html>", { status: 200 }));
    const err = await failure(fetchJson("/api/chats"));
    expect(err).toMatchObject({ status: 200, code: "BadResponse", message: "The server's answer could not be read." });
  });

  it("throws an unreachable ApiError when no answer comes through", async () => {
    answer(new TypeError("Failed to fetch"));
    const err = await failure(fetchJson("/api/chats"));
    expect(err).toMatchObject({ status: 0, code: "Unreachable", message: "Could not reach the server." });
    expect(err.unreachable).toBe(true);
    expect(serverMessage(err)).toBeUndefined();
    expect(serverMessage(new Error("not from fetchJson"))).toBeUndefined();
  });
});
