export interface GatewayCall {
  method: string;
  path: string;
  /** Sent as `Authorization: Bearer <bearer>`. */
  bearer?: string;
  headers?: Record<string, string>;
  /** Serialized as JSON unless it is already a string. */
  body?: unknown;
}

export interface GatewayAnswer {
  status: number;
  contentType: string;
  text: string;
  /** The parsed body when it is JSON, else undefined. */
  json: unknown;
  headers: Record<string, string>;
}

/** One HTTP exchange with the gateway (or a proxy in front of it), body read whole. */
export async function callGateway(baseUrl: string, call: GatewayCall): Promise<GatewayAnswer> {
  const headers: Record<string, string> = { accept: "application/json", ...call.headers };
  if (call.bearer) headers.authorization = `Bearer ${call.bearer}`;
  let body: string | undefined;
  if (call.body !== undefined) {
    body = typeof call.body === "string" ? call.body : JSON.stringify(call.body);
    headers["content-type"] ??= "application/json";
  }
  const response = await fetch(`${baseUrl}${call.path}`, {
    method: call.method,
    headers,
    body,
    signal: AbortSignal.timeout(20_000),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return {
    status: response.status,
    contentType: response.headers.get("content-type") ?? "",
    text,
    json,
    headers: Object.fromEntries(response.headers),
  };
}
