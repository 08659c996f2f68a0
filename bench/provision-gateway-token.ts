export interface ProvisionedToken {
  apiKey: string;
}

async function callManagement(
  gatewayUrl: string,
  adminToken: string,
  method: string,
  path: string,
  body?: object,
): Promise<{ success: boolean; message: string; data?: unknown }> {
  const response = await fetch(`${gatewayUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
    body: body ? JSON.stringify(body) : undefined,
  });
  const payload = (await response.json()) as { success: boolean; message: string; data?: unknown };
  if (!response.ok || !payload.success) throw new Error(`${method} ${path}: ${response.status} ${payload.message}`);
  return payload;
}

/**
 * Creates an API token through the management API, as an operator would, and reveals its key. A limited token
 * (the default) makes every request take the real reservation and settlement path.
 */
export async function provisionGatewayToken(
  gatewayUrl: string,
  adminToken: string,
  options: { name: string; unlimited: boolean },
): Promise<ProvisionedToken> {
  await callManagement(gatewayUrl, adminToken, "POST", "/api/token/", {
    name: options.name,
    unlimited_quota: options.unlimited,
    // 1,000,000 USD: the worst-case holds of 64 concurrent requests never come near it.
    remain_quota: options.unlimited ? 0 : 500_000_000_000,
  });
  const page = await callManagement(gatewayUrl, adminToken, "GET", "/api/token/?p=1&size=100");
  const items = (page.data as { items: Array<{ id: number; name: string }> }).items;
  const token = items.find((item) => item.name === options.name);
  if (!token) throw new Error(`token ${options.name} was created but is not listed`);
  const revealed = await callManagement(gatewayUrl, adminToken, "POST", `/api/token/${token.id}/key`);
  return { apiKey: `sk-${(revealed.data as { key: string }).key}` };
}
