import crypto from "node:crypto";

/** A user access token: 32 random bytes, base64url. Distinct in shape from API keys so the two are never confused. */
export function generateAccessToken(): string {
  return crypto.randomBytes(32).toString("base64url");
}
