/** How a `bedrock` channel key authenticates: AWS access keys (signed requests) or a Bedrock API key (Bearer). */
export type BedrockCredentials =
  | { kind: "aws"; accessKeyId: string; secretAccessKey: string; sessionToken: string | undefined }
  | { kind: "api-key"; apiKey: string };

/** An access key id: 16 to 128 upper-case letters and digits (AKIA… long-term, ASIA… temporary). */
const accessKeyIdPattern = /^[A-Z0-9]{16,128}$/;

/**
 * Reads a channel key: `<access key id>:<secret access key>[:<session token>]` is an AWS credential; anything else
 * is a Bedrock API key, sent as `Authorization: Bearer`.
 */
export function readBedrockCredentials(key: string): BedrockCredentials {
  const parts = key.split(":");
  if ((parts.length === 2 || parts.length === 3) && accessKeyIdPattern.test(parts[0]!) && parts.every(Boolean))
    return { kind: "aws", accessKeyId: parts[0]!, secretAccessKey: parts[1]!, sessionToken: parts[2] };
  return { kind: "api-key", apiKey: key };
}
