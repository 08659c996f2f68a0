import http from "node:http";

export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The body parsed as JSON, when it is JSON. */
  json: Record<string, unknown> | undefined;
}

export interface RawRequest {
  method?: string;
  /** Path and query, sent as given (no normalisation). */
  path: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
}

function parseJson(text: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed !== null && typeof parsed === "object" ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** One raw HTTP exchange over node:http, so no client library tidies the request or hides the answer. */
export function sendRawRequest(url: string, request: RawRequest): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const outgoing = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: request.path,
        method: request.method ?? "POST",
        headers: request.headers,
        agent: false,
      },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
        incoming.on("end", () => {
          const body = Buffer.concat(chunks).toString("utf8");
          resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, body, json: parseJson(body) });
        });
        incoming.on("error", reject);
      },
    );
    outgoing.on("error", reject);
    outgoing.end(request.body);
  });
}
