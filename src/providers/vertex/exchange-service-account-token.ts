import { importPKCS8, SignJWT } from "jose";
import { request } from "undici";
import { UpstreamFailure } from "../../upstream/upstream-failure.js";
import type { ServiceAccount } from "./read-service-account.js";

/** The OAuth scope Vertex AI's API takes. */
export const cloudPlatformScope = "https://www.googleapis.com/auth/cloud-platform";

/** An OAuth access token and when it stops being valid (epoch milliseconds). */
export interface AccessToken {
  token: string;
  expiresAt: number;
}

/**
 * The JWT bearer grant (RFC 7523) a service account uses: an RS256 JWT signed with its private key (iss = the
 * account, aud = its token_uri, one hour), exchanged at the account's own token_uri for an access token. Neither the
 * key, the assertion nor the token ever appears in an error: only the endpoint's status and error code.
 */
export async function exchangeServiceAccountToken(
  account: ServiceAccount,
  options: { now: number; timeoutMs: number },
): Promise<AccessToken> {
  let assertion: string;
  try {
    const privateKey = await importPKCS8(account.privateKey, "RS256");
    const issuedAt = Math.floor(options.now / 1000);
    assertion = await new SignJWT({ scope: cloudPlatformScope })
      .setProtectedHeader({ alg: "RS256", typ: "JWT", ...(account.privateKeyId ? { kid: account.privateKeyId } : {}) })
      .setIssuer(account.clientEmail)
      .setAudience(account.tokenUri)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + 3600)
      .sign(privateKey);
  } catch {
    throw tokenFailure("its private_key cannot sign (not a PKCS#8 RSA key)", true);
  }
  let answer: Awaited<ReturnType<typeof request>>;
  try {
    answer = await request(account.tokenUri, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: new URLSearchParams({ grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer", assertion }).toString(),
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
    });
  } catch {
    throw tokenFailure("the token endpoint could not be reached", true);
  }
  const text = await answer.body.text().catch(() => "");
  let parsed: { access_token?: unknown; expires_in?: unknown; error?: unknown } = {};
  try {
    parsed = JSON.parse(text) as typeof parsed;
  } catch {
    // Judged below by its status.
  }
  if (answer.statusCode !== 200 || typeof parsed.access_token !== "string") {
    const code = typeof parsed.error === "string" && /^[\w.-]{1,64}$/.test(parsed.error) ? `: ${parsed.error}` : "";
    throw tokenFailure(`the token endpoint answered ${answer.statusCode}${code}`, true);
  }
  const lifetimeSeconds = typeof parsed.expires_in === "number" && parsed.expires_in > 0 ? parsed.expires_in : 3600;
  return { token: parsed.access_token, expiresAt: options.now + lifetimeSeconds * 1000 };
}

function tokenFailure(why: string, retryable: boolean): UpstreamFailure {
  return new UpstreamFailure(`The vertex channel could not get an access token: ${why}.`, retryable, {
    status: 503,
    code: "upstream_error",
  });
}
