// Parley's OAuth client ID metadata document (the MCP 2025-11-25 revision's preferred way for a client
// to introduce itself): its URL is the client_id, and it names Parley's callback.
import { publicUrl } from "../config";
import { CALLBACK_PATH, CLIENT_METADATA_PATH } from "./mcp-member-config";

export function clientMetadataDocument(requestOrigin: string) {
  const base = (publicUrl() ?? requestOrigin).replace(/\/+$/, "");
  return {
    client_id: `${base}${CLIENT_METADATA_PATH}`,
    client_name: "Parley",
    client_uri: base,
    redirect_uris: [`${base}${CALLBACK_PATH}`],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
  };
}
