import { Sha256 } from "@aws-crypto/sha256-js";
import { SignatureV4 } from "@smithy/signature-v4";
import { readBedrockCredentials } from "./read-bedrock-credentials.js";

export interface BedrockRequestToSign {
  /** The channel's base URL (origin and any path prefix). */
  baseUrl: string;
  /** The path after the base URL, e.g. `/model/amazon.nova-pro-v1%3A0/converse`. */
  path: string;
  body: string;
  region: string;
  key: string;
  /** Extra headers to send (and sign): content type, accept. */
  headers: Record<string, string>;
  now?: Date;
}

/**
 * The headers of one Bedrock Runtime call. AWS keys sign it with Signature Version 4 (service `bedrock`, the
 * channel's region, the session token as `x-amz-security-token`) by AWS's own signer; a Bedrock API key goes as
 * `Authorization: Bearer`. The host is signed too, so it is sent explicitly.
 */
export async function signBedrockRequest(request: BedrockRequestToSign): Promise<Record<string, string>> {
  const credentials = readBedrockCredentials(request.key);
  const url = new URL(request.baseUrl);
  if (credentials.kind === "api-key") return { ...request.headers, authorization: `Bearer ${credentials.apiKey}` };
  const signer = new SignatureV4({
    service: "bedrock",
    region: request.region,
    sha256: Sha256,
    credentials: {
      accessKeyId: credentials.accessKeyId,
      secretAccessKey: credentials.secretAccessKey,
      ...(credentials.sessionToken ? { sessionToken: credentials.sessionToken } : {}),
    },
  });
  const signed = await signer.sign(
    {
      method: "POST",
      protocol: url.protocol,
      hostname: url.hostname,
      ...(url.port ? { port: Number(url.port) } : {}),
      path: `${url.pathname.replace(/\/+$/, "")}${request.path}`,
      query: {},
      headers: { ...request.headers, host: url.host },
      body: request.body,
    },
    request.now ? { signingDate: request.now } : {},
  );
  return signed.headers as Record<string, string>;
}
