import { createGatewayClient } from "ai-api-gateway/client";

/** The management API client of the signed-in user; the console only ever talks to the gateway that served it. */
export function createConsoleClient(accessToken: string) {
  return createGatewayClient({ baseUrl: window.location.origin, accessToken }).management;
}

export type ConsoleClient = ReturnType<typeof createConsoleClient>;
