import { type CryptoKey, type KeyObject, jwtVerify } from "jose";

export const jwtBearerGrant = "urn:ietf:params:oauth:grant-type:jwt-bearer";

/**
 * Checks a JWT bearer grant as Google's token endpoint does: the grant type, then the assertion's RS256 signature
 * against the service account's public key, its issuer (the account), audience (this endpoint), lifetime (at most
 * an hour, not expired) and the cloud-platform scope. Undefined when it holds; else the OAuth error's description.
 */
export async function verifyTokenRequest(
  form: URLSearchParams,
  options: { publicKey: CryptoKey | KeyObject; clientEmail: string; audience: string; now: number },
): Promise<string | undefined> {
  if (form.get("grant_type") !== jwtBearerGrant) return "Invalid grant_type.";
  const assertion = form.get("assertion");
  if (!assertion) return "Missing assertion.";
  try {
    const { payload } = await jwtVerify(assertion, options.publicKey, {
      algorithms: ["RS256"],
      issuer: options.clientEmail,
      audience: options.audience,
      currentDate: new Date(options.now),
      maxTokenAge: "1h",
    });
    if (typeof payload.exp !== "number" || typeof payload.iat !== "number" || payload.exp - payload.iat > 3600)
      return "Invalid JWT: the token must expire within an hour of issue.";
    if (
      typeof payload.scope !== "string" ||
      !payload.scope.split(" ").includes("https://www.googleapis.com/auth/cloud-platform")
    )
      return "Invalid OAuth scope or ID token audience provided.";
    return undefined;
  } catch {
    return "Invalid JWT Signature.";
  }
}
