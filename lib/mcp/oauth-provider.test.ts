// The issuer check on an authorization server's metadata (RFC 8414 §3.3): metadata that names another
// issuer than the server the resource's metadata pointed at is refused and nothing is stored; a server
// of the 2025-03-26 revision (no resource metadata, its address guessed from the MCP server's origin)
// is taken as it is.
import { describe, expect, it } from "vitest";
import { IssuerMismatch, StoredOAuthProvider, memoryStore } from "./oauth-provider";

const settings = { redirectUrl: "https://parley.example/api/mcp/oauth/callback", clientName: "Parley" };
const metadata = (issuer: string) => ({ issuer, authorization_endpoint: `${issuer}/authorize`, token_endpoint: `${issuer}/token`, response_types_supported: ["code"] });
const resourceMetadata = { resource: "https://mcp.example/mcp", authorization_servers: ["https://as.example"] };

describe("the authorization server's issuer", () => {
  it("refuses metadata naming another issuer than the server the resource named, and stores nothing", async () => {
    const store = memoryStore();
    const provider = new StoredOAuthProvider(store, settings, "background");
    const saved = provider.saveDiscoveryState({ authorizationServerUrl: "https://as.example", resourceMetadata, authorizationServerMetadata: metadata("https://evil.example") });
    await expect(saved).rejects.toBeInstanceOf(IssuerMismatch);
    await expect(saved).rejects.toThrow('names the issuer "https://evil.example", not "https://as.example"');
    expect(store.record.discovery).toBeUndefined();
  });

  it("keeps metadata whose issuer is the server it was fetched from (a trailing slash aside)", async () => {
    const store = memoryStore();
    const provider = new StoredOAuthProvider(store, settings, "background");
    await provider.saveDiscoveryState({ authorizationServerUrl: "https://as.example/", resourceMetadata, authorizationServerMetadata: metadata("https://as.example") });
    expect(store.record.discovery?.authorizationServerMetadata?.issuer).toBe("https://as.example");
  });

  it("takes a 2025-03-26 server's metadata, found at the MCP server's origin without resource metadata", async () => {
    const store = memoryStore();
    const provider = new StoredOAuthProvider(store, settings, "background");
    await provider.saveDiscoveryState({ authorizationServerUrl: "https://mcp.example/", authorizationServerMetadata: metadata("https://mcp.example/oauth") });
    expect(store.record.discovery?.authorizationServerMetadata?.issuer).toBe("https://mcp.example/oauth");
  });
});
