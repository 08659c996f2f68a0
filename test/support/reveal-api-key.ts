import type { GatewayClient } from "../../src/client/create-gateway-client.js";

/** The usable API key (`sk-` + the revealed 48 characters) of one of the client's tokens. */
export async function revealApiKey(client: GatewayClient, tokenId: number): Promise<string> {
  const revealed = await client.management.POST("/api/token/{id}/key", { params: { path: { id: tokenId } } });
  if (!revealed.data) throw new Error(`revealing token ${tokenId} failed: ${JSON.stringify(revealed.error)}`);
  return `sk-${revealed.data.data.key}`;
}
