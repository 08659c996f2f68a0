import { ConfigurationError } from "../errors/gateway-error.js";

/**
 * Which browser origins may call the gateway (CORS_ORIGINS). `*` opens the key-authenticated APIs (/v1, /v1beta) to
 * every origin; the management API (/api, a user's access token) answers only origins listed by name.
 */
export interface CorsOrigins {
  /** `*` was given: any origin may call /v1 and /v1beta. */
  anyOriginForModelApis: boolean;
  /** Origins listed by name (scheme://host[:port]), allowed on every API. */
  listed: ReadonlySet<string>;
}

/** Comma-separated origins or `*`; empty or unset turns CORS off (undefined). */
export function parseCorsOrigins(text: string | undefined): CorsOrigins | undefined {
  const entries = (text ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
  if (entries.length === 0) return undefined;
  const listed = new Set<string>();
  let anyOriginForModelApis = false;
  for (const entry of entries) {
    if (entry === "*") {
      anyOriginForModelApis = true;
      continue;
    }
    listed.add(readOrigin(entry));
  }
  return { anyOriginForModelApis, listed };
}

/** A browser sends its origin as `scheme://host[:port]`, lower case, default port left out; compare in that form. */
function readOrigin(entry: string): string {
  let url: URL | undefined;
  try {
    url = new URL(entry);
  } catch {
    url = undefined;
  }
  const origin = url?.origin;
  if (url === undefined || (url.protocol !== "http:" && url.protocol !== "https:") || origin === undefined)
    throw new ConfigurationError(`CORS_ORIGINS: "${entry}" is not an origin (scheme://host[:port]) or *.`);
  if (url.pathname !== "/" || url.search !== "" || url.hash !== "" || url.username !== "" || url.password !== "")
    throw new ConfigurationError(`CORS_ORIGINS: "${entry}" has more than an origin; give only scheme://host[:port].`);
  return origin;
}
