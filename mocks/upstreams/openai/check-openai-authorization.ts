import type { IncomingHttpHeaders } from "node:http";
import { OpenaiRequestError } from "./openai-request-error.js";

function maskKey(key: string): string {
  if (key.length <= 8) return "*".repeat(key.length);
  return `${key.slice(0, 3)}${"*".repeat(key.length - 7)}${key.slice(-4)}`;
}

/**
 * Enforces `Authorization: Bearer <key>` with OpenAI's two 401 wordings, for one key or the set of keys the account
 * has (a revoked key is one no longer in the set); a no-op without keys.
 */
export function checkOpenaiAuthorization(
  headers: IncomingHttpHeaders,
  apiKey: string | ReadonlySet<string> | undefined,
): void {
  if (apiKey === undefined) return;
  const match = /^Bearer\s+(.+)$/i.exec(headers.authorization ?? "");
  if (!match) {
    throw new OpenaiRequestError(
      401,
      "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY), or as the password field (with blank username) if you're accessing the API from your browser and are prompted for a username and password. You can obtain an API key from https://platform.openai.com/account/api-keys.",
    );
  }
  const presented = match[1].trim();
  if (typeof apiKey === "string" ? presented !== apiKey : !apiKey.has(presented)) {
    throw new OpenaiRequestError(
      401,
      `Incorrect API key provided: ${maskKey(presented)}. You can find your API key at https://platform.openai.com/account/api-keys.`,
      "invalid_request_error",
      null,
      "invalid_api_key",
    );
  }
}
