import { createHash } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import { Sha256 } from "@aws-crypto/sha256-js";
import { SignatureV4 } from "@smithy/signature-v4";

export interface AwsCredential {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

const authorizationPattern =
  /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/;

/**
 * Checks a Signature Version 4 request as AWS does: a known access key (and its session token), the credential
 * scope (date, region, service `bedrock`), a timestamp within five minutes, and the signature recomputed from the
 * canonical request (the path as received, the signed headers, the body's hash). Undefined when it holds; else the
 * exception AWS answers with.
 */
export async function verifySigV4(request: {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  credential: AwsCredential;
  region: string;
  now: number;
}): Promise<{ type: string; message: string } | undefined> {
  const match = authorizationPattern.exec(String(request.headers.authorization ?? ""));
  if (!match) return { type: "IncompleteSignatureException", message: "Authorization header requires a signature." };
  const [, accessKeyId, scopeDate, region, service, signedHeaderList, signature] = match;
  const { credential } = request;
  if (accessKeyId !== credential.accessKeyId)
    return { type: "UnrecognizedClientException", message: "The security token included in the request is invalid." };
  if (credential.sessionToken !== undefined && request.headers["x-amz-security-token"] !== credential.sessionToken)
    return { type: "UnrecognizedClientException", message: "The security token included in the request is invalid." };
  if (service !== "bedrock" || region !== request.region)
    return { type: "InvalidSignatureException", message: `Credential should be scoped to a valid region and service.` };
  const amzDate = String(request.headers["x-amz-date"] ?? "");
  const date = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(amzDate);
  if (!date || !amzDate.startsWith(scopeDate!))
    return { type: "IncompleteSignatureException", message: "X-Amz-Date is missing or does not match the scope." };
  const signedAt = Date.UTC(+date[1]!, +date[2]! - 1, +date[3]!, +date[4]!, +date[5]!, +date[6]!);
  if (Math.abs(request.now - signedAt) > 5 * 60_000)
    return {
      type: "InvalidSignatureException",
      message: `Signature expired: ${amzDate} is now earlier or later than the allowed five minutes.`,
    };
  const signedHeaders = signedHeaderList!.split(";");
  if (!signedHeaders.includes("host") || !signedHeaders.includes("x-amz-date"))
    return { type: "InvalidSignatureException", message: "The host and x-amz-date headers must be signed." };
  // The signer trusts a declared payload hash; AWS checks it against the body first.
  const declaredHash = request.headers["x-amz-content-sha256"];
  if (declaredHash !== undefined && declaredHash !== createHash("sha256").update(request.body).digest("hex"))
    return {
      type: "InvalidSignatureException",
      message: "The provided 'x-amz-content-sha256' header does not match what was computed.",
    };
  const headers: Record<string, string> = {};
  for (const name of signedHeaders) headers[name] = String(request.headers[name] ?? "");
  const signer = new SignatureV4({
    service: "bedrock",
    region: request.region,
    sha256: Sha256,
    credentials: credential,
  });
  const [pathname, search = ""] = request.path.split("?");
  const recomputed = await signer.sign(
    {
      method: request.method,
      protocol: "http:",
      hostname: headers.host!.split(":")[0]!,
      path: pathname!,
      query: Object.fromEntries(new URLSearchParams(search)),
      headers,
      body: request.body.toString("utf8"),
    },
    { signingDate: new Date(signedAt) },
  );
  const expected = /Signature=([0-9a-f]{64})/.exec(String(recomputed.headers.authorization))?.[1];
  if (expected !== signature)
    return {
      type: "InvalidSignatureException",
      message:
        "The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method.",
    };
  return undefined;
}
