/** Test helper: one HTTP call to a fake, returning status, headers, raw text and parsed JSON (when it parses). */
export async function callFakeNative(
  baseUrl: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; text: string; json: any }> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: body === undefined ? headers : { "content-type": "application/json", ...headers },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

/** Drops the per-answer random fields after checking their shape, so the rest can be compared exactly. */
export function withoutIdentity(body: any): any {
  const { responseId, createTime, ...rest } = body;
  if (typeof responseId !== "string" || responseId.length !== 22)
    throw new Error(`bad responseId ${String(responseId)}`);
  if (Number.isNaN(Date.parse(createTime))) throw new Error(`bad createTime ${String(createTime)}`);
  return rest;
}
