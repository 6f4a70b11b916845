// The tokens in links sent to people (invites, password resets, approval links): random and URL-safe;
// only their sha256 is stored, so a copy of the database opens no link.
import crypto from "node:crypto";

/** A new token of `bytes` random bytes, base64url. */
export const newLinkToken = (bytes = 24): string => crypto.randomBytes(bytes).toString("base64url");

/** What is stored of a token, and looked up by. */
export const linkTokenHash = (token: string): string => crypto.createHash("sha256").update(token).digest("hex");
