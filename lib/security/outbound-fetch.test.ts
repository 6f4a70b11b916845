// The SSRF rules against real sockets on loopback: metadata and link-local targets are refused when
// typed and when a host name resolves to them at connect time (a resolver the test controls stands in
// for DNS), private targets only with the operator's opt-in, loopback is allowed, and a redirect to
// another server is never followed (so the credentials of the first request stay there).
import { afterEach, describe, expect, it } from "vitest";
import { startScripted } from "@/test/support/test-upstreams";
import { judgeAddress, judgeUrl } from "./address-policy";
import { checkTarget, createOutboundFetch, OutboundRefused, type Resolve } from "./outbound-fetch";

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

async function capture(
  script: Parameters<typeof startScripted>[0] = (_req, res) => {
    res.end("ok");
  },
) {
  const up = await startScripted(script);
  stops.push(up.stop);
  return up;
}

/** A resolver that knows a few test names, as DNS would answer them. */
const names: Record<string, string[]> = {
  "metadata.test": ["169.254.169.254"],
  "aws6.test": ["fd00:ec2::254"],
  "mixed.test": ["127.0.0.1", "169.254.169.254"],
  "office.test": ["10.1.2.3"],
  "local.test": ["127.0.0.1"],
};
const resolve: Resolve = async (host) => {
  const list = names[host];
  if (!list) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
  return list.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
};

/** The refusal a fetch failed with (fetch wraps it as the cause of a TypeError). */
async function refusal(p: Promise<unknown>): Promise<string> {
  const err = (await p.then(
    () => undefined,
    (e: unknown) => e,
  )) as { cause?: unknown } | undefined;
  expect(err?.cause).toBeInstanceOf(OutboundRefused);
  return (err!.cause as Error).message;
}

describe("address rules on typed URLs (at save)", () => {
  it("refuses metadata and link-local targets even with the private opt-in", () => {
    for (const url of [
      "http://169.254.169.254/latest/meta-data",
      "http://[fd00:ec2::254]/",
      "http://metadata.google.internal/computeMetadata/v1",
      "http://100.100.100.200/",
      "http://[fe80::1]:8080/",
      "http://[::ffff:169.254.169.254]/",
      "http://169.254.1.1/",
      "http://0.0.0.0:11434/v1",
    ]) {
      expect(judgeUrl(url, true), url).toMatchObject({ ok: false });
      expect(judgeUrl(url, false), url).toMatchObject({ ok: false });
    }
  });

  it("refuses private and internal addresses unless the operator opts in", () => {
    for (const url of ["http://10.0.0.5/v1", "http://172.16.3.4/", "http://192.168.1.10:11434/v1", "http://[fd12:3456::1]/", "http://100.64.0.7/"]) {
      expect(judgeUrl(url, false), url).toMatchObject({ ok: false, reason: expect.stringContaining("PARLEY_ALLOW_PRIVATE_URLS") });
      expect(judgeUrl(url, true), url).toEqual({ ok: true });
    }
  });

  it("allows loopback (local model servers) and public addresses by default", () => {
    for (const url of ["http://127.0.0.1:11434/v1", "http://[::1]:1234/v1", "http://localhost:8080/", "https://api.openai.com/v1", "http://8.8.8.8/"]) {
      expect(judgeUrl(url, false), url).toEqual({ ok: true });
    }
    expect(judgeAddress("2606:4700::1111", false)).toEqual({ ok: true });
  });
});

describe("address rules at connect time", () => {
  it("refuses a host name that resolves to a metadata or link-local address, before connecting", async () => {
    const f = createOutboundFetch({ resolve, allowPrivate: () => true });
    expect(await refusal(f("http://metadata.test/latest/meta-data", { headers: { authorization: "Bearer sk-op" } }))).toMatch(
      /169\.254\.169\.254 is a cloud-metadata/,
    );
    expect(await refusal(f("http://aws6.test/"))).toMatch(/fd00:ec2::254/);
    // One bad answer among good ones is enough to refuse.
    expect(await refusal(f("http://mixed.test/"))).toMatch(/169\.254\.169\.254/);
    // Literal addresses do not go through the resolver: refused all the same.
    expect(await refusal(f("http://169.254.169.254/"))).toMatch(/cloud-metadata/);
  });

  it("checks what an MCP server's host name resolves to before a session opens", async () => {
    await expect(checkTarget("http://metadata.test/mcp", { resolve, allowPrivate: () => true })).rejects.toBeInstanceOf(OutboundRefused);
    await expect(checkTarget("http://office.test/mcp", { resolve, allowPrivate: () => false })).rejects.toThrow(/PARLEY_ALLOW_PRIVATE_URLS/);
    await expect(checkTarget("http://local.test:8080/mcp", { resolve, allowPrivate: () => false })).resolves.toBeUndefined();
  });

  it("refuses a name resolving to a private address without the opt-in", async () => {
    const f = createOutboundFetch({ resolve, allowPrivate: () => false });
    expect(await refusal(f("http://office.test/v1/models"))).toMatch(/PARLEY_ALLOW_PRIVATE_URLS/);
  });

  it("connects to loopback, through the checked address, with the request's own host name", async () => {
    const up = await capture();
    const port = new URL(up.url).port;
    const f = createOutboundFetch({ resolve, allowPrivate: () => false });
    const res = await f(`http://local.test:${port}/hello`);
    expect(await res.text()).toBe("ok");
    expect(up.requests[0]).toMatchObject({ path: "/hello", headers: expect.objectContaining({ host: `local.test:${port}` }) });
  });

  it("tries the next checked address when one refuses the connection (a name with IPv6 and IPv4 answers)", async () => {
    const up = await capture();
    const port = new URL(up.url).port;
    // The server listens on 127.0.0.1 only: 127.0.0.2 refuses, as ::1 does for an IPv4-only server.
    const twoAnswers: Resolve = async () => [
      { address: "127.0.0.2", family: 4 },
      { address: "127.0.0.1", family: 4 },
    ];
    const res = await createOutboundFetch({ resolve: twoAnswers, allowPrivate: () => false })(`http://dual.test:${port}/both`);
    expect(await res.text()).toBe("ok");
    expect(up.requests[0]).toMatchObject({ path: "/both" });
  });
});

describe("redirects", () => {
  it("never follows a redirect to another server, so the key stays where it was sent", async () => {
    const thief = await capture();
    const origin = await capture((_req, res) => {
      res.writeHead(307, { location: `${thief.url}/v1/models` });
      res.end();
    });
    const f = createOutboundFetch();
    expect(await refusal(f(`${origin.url}/v1/models`, { headers: { authorization: "Bearer sk-operator-key" } }))).toMatch(/redirected to another server/);
    expect(origin.requests).toHaveLength(1);
    expect(thief.requests).toHaveLength(0);
  });

  it("follows a redirect within the same origin", async () => {
    const up = await capture((req, res) => {
      if (req.path === "/v1/models") res.writeHead(308, { location: "/v1/models/" }).end();
      else res.end(`at ${req.path} with ${req.headers.authorization}`);
    });
    const res = await createOutboundFetch()(`${up.url}/v1/models`, { headers: { authorization: "Bearer k" } });
    expect(await res.text()).toBe("at /v1/models/ with Bearer k");
  });
});
