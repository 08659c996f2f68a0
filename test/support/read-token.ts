import type { TestGateway } from "./start-test-gateway.js";

/** The token as the management API shows it now. */
export async function readToken(gateway: TestGateway, id: number) {
  const result = await gateway.client.management.GET("/api/token/{id}", { params: { path: { id } } });
  if (!result.data) throw new Error(`cannot read token ${id}: ${JSON.stringify(result.error)}`);
  return result.data.data;
}
