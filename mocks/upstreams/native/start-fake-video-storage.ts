import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { RecordedRequest } from "../shared/recorded-request.js";

export interface FakeVideoStorage {
  /** Its origin: another port on 127.0.0.1, so another host than the API's as far as a client is concerned. */
  url: string;
  /** Every request it got, with its headers (a test checks no API key reached it). */
  requests: RecordedRequest[];
  /** A signed, short-lived URL for these bytes, as the real API's file download redirects to. */
  publish(bytes: Buffer, contentType: string): string;
  reset(): void;
  close(): Promise<void>;
}

/**
 * The storage host the fake native API's file downloads redirect to: `GET /video-storage/<object>?token=…` answers
 * the bytes published under that object for the right token, 403 for a wrong one, 404 for an unknown object. It
 * needs no API key (the token is the credential), as the real storage behind `:download?alt=media` does.
 */
export async function startFakeVideoStorage(now: () => number): Promise<FakeVideoStorage> {
  const requests: RecordedRequest[] = [];
  const objects = new Map<string, { token: string; bytes: Buffer; contentType: string }>();
  let counter = 0;
  const server = createServer((request, response) => {
    requests.push({
      method: request.method ?? "GET",
      path: request.url ?? "/",
      headers: request.headers,
      body: undefined,
      receivedAt: now(),
      aborted: false,
    });
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    const match = /^\/video-storage\/([\w-]+)$/.exec(url.pathname);
    const object = match === null ? undefined : objects.get(match[1]!);
    if (request.method !== "GET" || object === undefined) {
      response.writeHead(404, { "content-type": "text/plain" }).end("no such object");
      return;
    }
    if (url.searchParams.get("token") !== object.token) {
      response.writeHead(403, { "content-type": "text/plain" }).end("bad token");
      return;
    }
    response.writeHead(200, { "content-type": object.contentType, "content-length": object.bytes.length });
    response.end(object.bytes);
  });
  server.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    publish(bytes, contentType) {
      counter += 1;
      const name = `object${String(counter).padStart(6, "0")}`;
      const token = randomBytes(12).toString("hex");
      objects.set(name, { token, bytes, contentType });
      return `${url}/video-storage/${name}?token=${token}`;
    },
    reset() {
      requests.length = 0;
      objects.clear();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
