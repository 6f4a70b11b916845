// MCP connections are pinned to addresses that pass the address rules: the rules are applied to the
// addresses the connection itself is made to, not only to a lookup before it (a DNS answer that
// changes between the check and the connection cannot reach a refused address). A resolver the test
// controls stands in for DNS; the servers are real, on loopback.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Resolve } from "../security/outbound-fetch";
import { openConnection } from "./connection";
import type { McpFailure } from "./failures";
import { httpConfig, startEverythingSse, startTestServer, type RunningServer } from "../../test/support/test-servers";

let http: RunningServer;
let sse: RunningServer;
beforeAll(async () => {
  [http, sse] = await Promise.all([startTestServer(), startEverythingSse()]);
});
afterAll(async () => {
  await Promise.all([http?.stop(), sse?.stop()]);
});

/** DNS as an attacker runs it: loopback for the first lookup (the check), then `later`. */
function rebinding(later = "169.254.169.254") {
  const lookups: string[] = [];
  const resolve: Resolve = async (host) => {
    lookups.push(host);
    return [{ address: lookups.length === 1 ? "127.0.0.1" : later, family: 4 }];
  };
  return { resolve, lookups };
}

const loopback: Resolve = async () => [{ address: "127.0.0.1", family: 4 }];
const named = (server: RunningServer, host: string) => server.url.replace("127.0.0.1", host);

async function failureOf(p: Promise<unknown>): Promise<McpFailure> {
  return p.then(
    () => {
      throw new Error("expected a failure");
    },
    (e: unknown) => e as McpFailure,
  );
}

describe("MCP connections pinned to checked addresses", () => {
  for (const transport of ["http", "sse"] as const) {
    it(`${transport}: a name that resolves to the metadata address when the connection opens is refused`, async () => {
      const dns = rebinding();
      const server = transport === "http" ? http : sse;
      const f = await failureOf(openConnection(httpConfig(named(server, "rebind.test"), { transport }), {}, undefined, { resolve: dns.resolve }));
      expect(f.kind).toBe("config");
      expect(f.message).toMatch(/Refused to connect to rebind\.test: 169\.254\.169\.254 is a cloud-metadata or link-local address/);
      // The check before the session passed; the connection itself looked the name up again and refused it.
      expect(dns.lookups.length).toBeGreaterThanOrEqual(2);
    });

    it(`${transport}: a name that resolves to loopback connects to the checked address and calls work`, async () => {
      const server = transport === "http" ? http : sse;
      const conn = await openConnection(httpConfig(named(server, "tools.test"), { transport }), {}, undefined, { resolve: loopback });
      try {
        expect(conn.tools.map((t) => t.name)).toContain("echo");
        const res = await conn.callTool("echo", { message: "pinned" }, { timeoutMs: 5000 });
        expect(res.content[0]).toMatchObject({ type: "text", text: expect.stringContaining("pinned") });
      } finally {
        await conn.close();
      }
    });
  }

  it("a private address needs the operator's opt-in, also when it only shows up at connect time", async () => {
    const config = httpConfig(named(http, "office.test"));
    const refused = await failureOf(openConnection(config, {}, undefined, { resolve: rebinding("10.1.2.3").resolve, allowPrivate: () => false }));
    expect(refused.kind).toBe("config");
    expect(refused.message).toMatch(/10\.1\.2\.3 is a private or internal address\. The operator allows such targets with PARLEY_ALLOW_PRIVATE_URLS=1/);
  });
});
