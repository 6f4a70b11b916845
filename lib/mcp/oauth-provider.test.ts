// Clients keyed by issuer: a member's own client is used at the authorization server that registered
// it; elsewhere the server-wide client registered at that issuer is used, or the admin's unstamped one.
// (The issuer checks themselves are the SDK's: scripts/conformance.mjs runs the suite's iss-* and
// metadata-issuer-mismatch scenarios against them.)
import { describe, expect, it } from "vitest";
import { StoredOAuthProvider, memoryStore, serverClientFor } from "./oauth-provider";

const settings = { redirectUrl: "https://parley.example/api/mcp/oauth/callback", clientName: "Parley" };
const admins = { client_id: "admin-client" };
const atAs1 = { client_id: "as1-client", redirect_uris: ["https://parley.example/cb"], issuer: "https://as1.example" };
const atAs2 = { client_id: "as2-client", redirect_uris: ["https://parley.example/cb"], issuer: "https://as2.example" };

describe("OAuth clients per issuer", () => {
  it("uses the member's own client at the issuer that registered it", async () => {
    const provider = new StoredOAuthProvider(memoryStore({ clientInformation: atAs1 }), { ...settings, preRegistered: [atAs2] }, "background");
    expect((await provider.clientInformation({ issuer: "https://as1.example" }))?.client_id).toBe("as1-client");
  });

  it("never shows one authorization server's client to another: the server-wide one for that issuer instead", async () => {
    const provider = new StoredOAuthProvider(memoryStore({ clientInformation: atAs1 }), { ...settings, preRegistered: [admins, atAs2] }, "background");
    expect((await provider.clientInformation({ issuer: "https://as2.example" }))?.client_id).toBe("as2-client");
  });

  it("falls back to the admin's unstamped client, and to none", () => {
    expect(serverClientFor([atAs1, admins], "https://as3.example")?.client_id).toBe("admin-client");
    expect(serverClientFor([atAs1], "https://as3.example")).toBeUndefined();
    expect(serverClientFor([atAs1], "https://as1.example/")).toBeUndefined(); // issuers compare exactly
  });
});
