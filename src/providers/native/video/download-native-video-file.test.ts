import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import type { ChannelAttempt } from "../../contract/channel-attempt.js";
import { createCheckedDownloadOpener } from "../../../net/create-checked-download-opener.js";
import { buildUpstreamHeaders } from "../../../upstream/build-upstream-headers.js";
import { ClientGoneSignal } from "../../../http/client-gone-signal.js";
import { closeUpstreamDispatchers } from "../../../upstream/get-upstream-dispatcher.js";
import { UpstreamFailure } from "../../../upstream/upstream-failure.js";
import { downloadNativeVideoFile } from "./download-native-video-file.js";

interface Seen {
  path: string;
  key: string | undefined;
}

/** A server on 127.0.0.1 whose answers a test sets per path; it records every request's path and key header. */
async function startServer() {
  const seen: Seen[] = [];
  const routes = new Map<string, { status: number; location?: string; body?: string }>();
  const server = http.createServer((request, response) => {
    const header = request.headers["x-goog-api-key"];
    seen.push({ path: request.url ?? "", key: typeof header === "string" ? header : undefined });
    const route = routes.get(request.url ?? "") ?? { status: 404, body: "missing" };
    response.writeHead(route.status, route.location === undefined ? {} : { location: route.location });
    response.end(route.body ?? "");
  });
  server.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    routes,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const channelHost = await startServer();
const storageHost = await startServer();
afterAll(async () => {
  await closeUpstreamDispatchers();
  await channelHost.close();
  await storageHost.close();
});

const attempt = {
  channel: {
    id: 9301,
    type: "native",
    keys: ["native-secret"],
    baseUrl: channelHost.origin,
    timeouts: { connectMs: 1000, headerMs: 2000, idleMs: 2000 },
  },
  group: "default",
  upstreamModel: "veo-3.1-fast-generate-preview",
  upstreamKey: "native-secret",
} as unknown as ChannelAttempt;

/** The tests' fakes are on loopback: the opener allows exactly 127.0.0.1, as `fetch.allow_private: [127.0.0.1/32]`. */
const openDownload = createCheckedDownloadOpener({
  isAllowedAddress: (address) => address === "127.0.0.1",
  connectTimeoutMs: 2000,
});
const call = {
  attempt,
  signal: new ClientGoneSignal(),
  upstreamHeaders: (options?: { jsonBody?: boolean; accept?: string }) =>
    buildUpstreamHeaders({ "x-goog-api-key": "native-secret" }, options),
  openDownload,
};
const download = "/v1beta/files/file1:download?alt=media";

async function bodyOf(path: string): Promise<string> {
  const response = await downloadNativeVideoFile(call, path);
  return await response.body.text();
}

async function failureOf(path: string): Promise<UpstreamFailure> {
  const error = await downloadNativeVideoFile(call, path).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(UpstreamFailure);
  return error as UpstreamFailure;
}

describe("downloadNativeVideoFile", () => {
  it("follows the file URL's 302 to another host without the channel key, and keeps the key on the channel's host", async () => {
    channelHost.seen.length = 0;
    storageHost.seen.length = 0;
    channelHost.routes.set(download, { status: 302, location: "/v1beta/files/file1:moved?alt=media" });
    channelHost.routes.set("/v1beta/files/file1:moved?alt=media", {
      status: 307,
      location: `${storageHost.origin}/bucket/file1?token=t1`,
    });
    storageHost.routes.set("/bucket/file1?token=t1", { status: 200, body: "video bytes" });
    expect(await bodyOf(download)).toBe("video bytes");
    expect(channelHost.seen).toEqual([
      { path: download, key: "native-secret" },
      { path: "/v1beta/files/file1:moved?alt=media", key: "native-secret" },
    ]);
    expect(storageHost.seen).toEqual([{ path: "/bucket/file1?token=t1", key: undefined }]);
  });

  it("refuses a redirect to an address the SSRF rules refuse, without dialling it", async () => {
    channelHost.routes.set("/v1beta/files/meta:download?alt=media", {
      status: 302,
      location: "http://169.254.169.254/latest/meta-data/",
    });
    const failure = await failureOf("/v1beta/files/meta:download?alt=media");
    expect(failure.status).toBe(502);
    expect(failure.message).toContain("redirected the video download to 169.254.169.254, which is refused");
    // The loopback name resolves to an allowed address; another loopback address is refused where the socket opens.
    channelHost.routes.set("/v1beta/files/loop:download?alt=media", {
      status: 302,
      location: `http://127.0.0.2:${new URL(storageHost.origin).port}/bucket/x`,
    });
    expect((await failureOf("/v1beta/files/loop:download?alt=media")).message).toContain("127.0.0.2");
  });

  it("gives up after three redirects, and refuses a Location that is not http(s)", async () => {
    for (let hop = 0; hop < 4; hop += 1)
      storageHost.routes.set(`/loop/${hop}`, { status: 302, location: `/loop/${hop + 1}` });
    channelHost.routes.set("/v1beta/files/many:download?alt=media", {
      status: 302,
      location: `${storageHost.origin}/loop/0`,
    });
    storageHost.seen.length = 0;
    const failure = await failureOf("/v1beta/files/many:download?alt=media");
    expect(failure.message).toBe("The upstream redirected the video download more than 3 times.");
    // Three redirects followed (to /loop/0, /loop/1, /loop/2); the fourth, /loop/2's, is not.
    expect(storageHost.seen.map((entry) => entry.path)).toEqual(["/loop/0", "/loop/1", "/loop/2"]);

    channelHost.routes.set("/v1beta/files/ftp:download?alt=media", { status: 302, location: "ftp://example.com/x" });
    expect((await failureOf("/v1beta/files/ftp:download?alt=media")).message).toBe(
      "The upstream redirected the video download to a ftp URL.",
    );
  });

  it("maps the storage host's error answer to an upstream failure", async () => {
    channelHost.routes.set("/v1beta/files/gone:download?alt=media", {
      status: 302,
      location: `${storageHost.origin}/bucket/gone`,
    });
    const failure = await failureOf("/v1beta/files/gone:download?alt=media");
    expect(failure.upstreamStatusCode).toBe(404);
  });
});
