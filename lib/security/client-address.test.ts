// Whose address a request comes from: the connection's, stamped by the server, and forwarding
// headers only through configured proxies; a client cannot choose its own bucket.
import http from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { parseConfig } from "../config";
import { addressBucket, clientAddress, CONNECTION_HEADER, connectionStamped, FORWARDED_HEADER, fromThisMachine } from "./client-address";

const STAMPED = Symbol.for("parley.connectionAddress");
const stamp = (on: boolean) => ((globalThis as Record<symbol, unknown>)[STAMPED] = on);
const req = (h: Record<string, string>) => new Headers(h);

afterEach(() => {
  delete process.env.PARLEY_TRUSTED_PROXIES;
});

describe("clientAddress", () => {
  it("is unknown when the server does not stamp connections, whatever the headers say", () => {
    stamp(false);
    expect(clientAddress(req({ [CONNECTION_HEADER]: "203.0.113.9", "x-forwarded-for": "198.51.100.1" }))).toBeUndefined();
  });

  it("is the connection's address, and forwarding headers from a client are ignored", () => {
    stamp(true);
    expect(clientAddress(req({ [CONNECTION_HEADER]: "203.0.113.9", "x-forwarded-for": "198.51.100.1", "x-real-ip": "198.51.100.2" }))).toBe("203.0.113.9");
    expect(clientAddress(req({ [CONNECTION_HEADER]: "::ffff:127.0.0.1" }))).toBe("127.0.0.1");
    expect(clientAddress(req({ [CONNECTION_HEADER]: "not an address" }))).toBeUndefined();
  });

  it("reads X-Forwarded-For right to left through trusted proxies only", () => {
    stamp(true);
    process.env.PARLEY_TRUSTED_PROXIES = "10.0.0.0/24, fd00::1";
    const viaProxy = (xff: string) => clientAddress(req({ [CONNECTION_HEADER]: "10.0.0.5", "x-forwarded-for": xff }));
    expect(viaProxy("198.51.100.7")).toBe("198.51.100.7");
    // A client's own X-Forwarded-For entries sit left of what the proxy appended: they do not count.
    expect(viaProxy("1.1.1.1, 2.2.2.2, 198.51.100.7")).toBe("198.51.100.7");
    // Two proxies in a row.
    expect(viaProxy("198.51.100.7, 10.0.0.9")).toBe("198.51.100.7");
    // Garbage the last proxy passed on stops the walk at the last address it vouched for.
    expect(viaProxy("198.51.100.7, bogus, 10.0.0.9")).toBe("10.0.0.9");
    expect(clientAddress(req({ [CONNECTION_HEADER]: "10.0.0.5", "x-real-ip": "198.51.100.8" }))).toBe("198.51.100.8");
    expect(clientAddress(req({ [CONNECTION_HEADER]: "fd00::1", "x-forwarded-for": "2001:db8::5" }))).toBe("2001:db8::5");
    // A connection from elsewhere is the client, whatever it forwards.
    expect(clientAddress(req({ [CONNECTION_HEADER]: "10.0.1.5", "x-forwarded-for": "198.51.100.7" }))).toBe("10.0.1.5");
  });

  it("counts IPv6 clients by their /64 network", () => {
    expect(addressBucket("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(addressBucket("2001:db8:1:2:bbbb::9")).toBe("2001:db8:1:2::/64");
    expect(addressBucket("127.0.0.2")).toBe("127.0.0.2");
  });

  it("PARLEY_TRUSTED_PROXIES must be addresses or ranges", () => {
    expect(parseConfig({ PARLEY_TRUSTED_PROXIES: "10.0.0.1, 192.168.0.0/16,::1" }).PARLEY_TRUSTED_PROXIES).toEqual(["10.0.0.1", "192.168.0.0/16", "::1"]);
    expect(parseConfig({}).PARLEY_TRUSTED_PROXIES).toEqual([]);
    expect(() => parseConfig({ PARLEY_TRUSTED_PROXIES: "10.0.0.1,proxy.local" })).toThrow(/PARLEY_TRUSTED_PROXIES/);
    expect(() => parseConfig({ PARLEY_TRUSTED_PROXIES: "10.0.0.0/33" })).toThrow(/PARLEY_TRUSTED_PROXIES/);
  });
});

describe("the server's stamp (scripts/connection-address.mjs)", () => {
  it("replaces a client's value with the connection's address", async () => {
    await import(/* @vite-ignore */ new URL("../../scripts/connection-address.mjs", import.meta.url).href);
    expect(connectionStamped()).toBe(true);
    const server = http.createServer((r, res) => res.end(String(r.headers[CONNECTION_HEADER])));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    try {
      const seen = await new Promise<string>((resolve, reject) => {
        const r = http.request({ host: "127.0.0.1", port, localAddress: "127.0.0.2", headers: { [CONNECTION_HEADER]: "198.51.100.1" } }, (res) => {
          let body = "";
          res.on("data", (c) => (body += c));
          res.on("end", () => resolve(body));
        });
        r.on("error", reject);
        r.end();
      });
      expect(seen).toBe("127.0.0.2");
    } finally {
      server.close();
    }
  });
});

describe("fromThisMachine (first-run setup without the set-up code)", () => {
  const local = { [CONNECTION_HEADER]: "::ffff:127.0.0.1", [FORWARDED_HEADER]: "0", host: "localhost:3000" };

  it("is a loopback connection opened as localhost, 127.0.0.1 or [::1], that arrived without forwarding headers", () => {
    stamp(true);
    expect(fromThisMachine(req(local))).toBe(true);
    expect(fromThisMachine(req({ ...local, host: "127.0.0.1:3000" }))).toBe(true);
    expect(fromThisMachine(req({ ...local, [CONNECTION_HEADER]: "::1", host: "[::1]:3000" }))).toBe(true);
  });

  it("is not for another address, a proxied request, a public host name, or a server that does not stamp", () => {
    stamp(true);
    expect(fromThisMachine(req({ ...local, [CONNECTION_HEADER]: "203.0.113.9" }))).toBe(false);
    expect(fromThisMachine(req({ ...local, [FORWARDED_HEADER]: "1" }))).toBe(false);
    expect(fromThisMachine(req({ [CONNECTION_HEADER]: "127.0.0.1", host: "localhost" }))).toBe(false);
    expect(fromThisMachine(req({ ...local, host: "chat.example.com" }))).toBe(false);
    stamp(false);
    expect(fromThisMachine(req(local))).toBe(false);
  });
});
