import createClient from "openapi-fetch";
import type { paths as ManagementPaths } from "../../generated/types/management.js";
import type { paths as NativePaths } from "../../generated/types/native.js";
import type { paths as OpenaiPaths } from "../../generated/types/openai.js";

export interface GatewayClientOptions {
  baseUrl: string;
  /** User access token for /api. */
  accessToken?: string;
  /** API key (`sk-…`) for /v1 and /v1beta. */
  apiKey?: string;
  fetch?: typeof globalThis.fetch;
}

/** Typed clients for the three generations, built from the generated path types. */
export function createGatewayClient(options: GatewayClientOptions) {
  const common = { baseUrl: options.baseUrl, ...(options.fetch ? { fetch: options.fetch } : {}) };
  const bearer = (secret: string | undefined) => (secret ? { Authorization: `Bearer ${secret}` } : {});
  return {
    management: createClient<ManagementPaths>({ ...common, headers: bearer(options.accessToken) }),
    openai: createClient<OpenaiPaths, "application/json">({ ...common, headers: bearer(options.apiKey) }),
    native: createClient<NativePaths, "application/json">({ ...common, headers: bearer(options.apiKey) }),
  };
}

export type GatewayClient = ReturnType<typeof createGatewayClient>;
