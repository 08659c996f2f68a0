import type { IncomingMessage } from "node:http";

export interface RequestBody {
  raw: Buffer;
  /** Parsed JSON when the content type says JSON and it parses; otherwise the raw bytes; undefined when empty. */
  value: unknown;
  /** True when the content type said JSON but the bytes did not parse. */
  invalidJson: boolean;
}

export async function readRequestBody(request: IncomingMessage): Promise<RequestBody> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks);
  if (raw.length === 0) return { raw, value: undefined, invalidJson: false };
  const contentType = request.headers["content-type"] ?? "";
  if (!/^application\/([\w.+-]+\+)?json\b/i.test(contentType)) return { raw, value: raw, invalidJson: false };
  try {
    return { raw, value: JSON.parse(raw.toString("utf8")), invalidJson: false };
  } catch {
    return { raw, value: raw, invalidJson: true };
  }
}
