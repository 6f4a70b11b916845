// GET (public): Parley's OAuth client ID metadata document. An authorization server that supports
// client ID metadata documents takes this URL as Parley's client_id and reads Parley's name and
// callback from it, so no registration is needed. Only used when Parley is served over https.
import { clientMetadataDocument } from "@/lib/identity/mcp-client-metadata";

export async function GET(req: Request): Promise<Response> {
  return Response.json(clientMetadataDocument(new URL(req.url).origin), { headers: { "cache-control": "public, max-age=3600" } });
}
