import { UpstreamFailure } from "../../upstream/upstream-failure.js";

/** The fields of a Google service account key (the JSON file the console downloads) the gateway uses. */
export interface ServiceAccount {
  clientEmail: string;
  privateKey: string;
  privateKeyId: string | undefined;
  tokenUri: string;
  projectId: string | undefined;
}

/**
 * A `vertex` channel key: the service account's JSON, as text. A key that is not one is the channel's fault, said
 * without quoting any of it (it holds the private key).
 */
export function readServiceAccount(key: string): ServiceAccount {
  let parsed: unknown;
  try {
    parsed = JSON.parse(key);
  } catch {
    throw invalidKey("it is not JSON");
  }
  if (parsed === null || typeof parsed !== "object") throw invalidKey("it is not a JSON object");
  const fields = parsed as Record<string, unknown>;
  const text = (name: string) =>
    typeof fields[name] === "string" && fields[name] !== "" ? (fields[name] as string) : undefined;
  const clientEmail = text("client_email");
  const privateKey = text("private_key");
  const tokenUri = text("token_uri");
  if (!clientEmail || !privateKey || !tokenUri) throw invalidKey("it lacks client_email, private_key or token_uri");
  return { clientEmail, privateKey, privateKeyId: text("private_key_id"), tokenUri, projectId: text("project_id") };
}

function invalidKey(why: string): UpstreamFailure {
  // Retryable: another channel may hold a good key; the operator sees the channel's failures.
  return new UpstreamFailure(`The vertex channel's key is not a service account key: ${why}.`, true, {
    status: 503,
    code: "upstream_error",
  });
}
