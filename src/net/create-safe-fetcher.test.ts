import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InvalidRequestError } from "../errors/gateway-error.js";
import { parseAllowList } from "../auth/ip/parse-allow-list.js";
import { createSafeFetcher } from "./create-safe-fetcher.js";
import { rejectionOf } from "../../test/support/rejection-of.js";

const png = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");

let server: http.Server;
let origin: string;

beforeAll(async () => {
  server = http.createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    switch (url.pathname) {
      case "/image.png":
        response.writeHead(200, { "content-type": "image/png" }).end(png);
        return;
      case "/redirect-to-image":
        response.writeHead(302, { location: "/image.png" }).end();
        return;
      case "/redirect-to-metadata":
        response.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" }).end();
        return;
      case "/redirect-loop":
        response.writeHead(302, { location: "/redirect-loop" }).end();
        return;
      case "/redirect-to-file":
        response.writeHead(302, { location: "file:///etc/passwd" }).end();
        return;
      case "/page.html":
        response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end("<html></html>");
        return;
      case "/big-declared":
        response.writeHead(200, { "content-type": "image/png", "content-length": "4096" }).end(Buffer.alloc(4096));
        return;
      case "/big-chunked": {
        // No Content-Length: the limit must be enforced while reading.
        response.writeHead(200, { "content-type": "image/png" });
        for (let index = 0; index < 8; index += 1) response.write(Buffer.alloc(512));
        response.end();
        return;
      }
      case "/missing":
        response.writeHead(404, { "content-type": "text/plain" }).end("no");
        return;
      default:
        response.writeHead(500).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const base = { maxBytes: 1024, allowedMimeTypes: ["image/png", "image/jpeg"], timeoutMs: 5_000 };
const onlyLoopbackV4 = (address: string): boolean => address === "127.0.0.1";

const rejection = (promise: Promise<unknown>) => rejectionOf(promise, InvalidRequestError);

describe("createSafeFetcher address rules", () => {
  it("refuses a loopback server by default (127.0.0.1 is the loopback rule)", async () => {
    const error = await rejection(createSafeFetcher(base)(`${origin}/image.png`));
    expect(error.status).toBe(400);
    expect(error.code).toBe("invalid_media_url");
    expect(error.message).toMatch(/127\.0\.0\.1.*not a public address/);
  });

  it("refuses localhost by name: the resolved address is checked at connect time", async () => {
    const port = new URL(origin).port;
    const error = await rejection(createSafeFetcher(base)(`http://localhost:${port}/image.png`));
    expect(error.message).toMatch(/not a public address/);
  });

  it.each([
    "http://169.254.169.254/latest/meta-data/",
    "http://10.0.0.1/a.png",
    "http://172.16.5.4/a.png",
    "http://192.168.1.1/a.png",
    "http://100.64.0.1/a.png",
    "http://0.0.0.0/a.png",
    "http://[::1]/a.png",
    "http://[fe80::1]/a.png",
    "http://[fd00::1]/a.png",
    "http://[::ffff:169.254.169.254]/a.png",
    "http://[::ffff:7f00:1]/a.png",
  ])("refuses %s before dialling", async (url) => {
    const error = await rejection(createSafeFetcher({ ...base, timeoutMs: 2_000 })(url));
    expect(error.message).toMatch(/not a public address/);
  });

  it.each(["file:///etc/passwd", "ftp://example.com/a.png", "gopher://127.0.0.1/", "not a url"])(
    "refuses %s by scheme",
    async (url) => {
      const error = await rejection(createSafeFetcher(base)(url));
      expect(error.code).toBe("invalid_media_url");
    },
  );
});

describe("createSafeFetcher with a test allowance for 127.0.0.1", () => {
  const fetchMedia = createSafeFetcher({ ...base, allowAddress: onlyLoopbackV4 });

  it("downloads an allowed image", async () => {
    await expect(fetchMedia(`${origin}/image.png`)).resolves.toEqual({ mimeType: "image/png", data: png });
  });

  it("follows a redirect and checks the new target", async () => {
    await expect(fetchMedia(`${origin}/redirect-to-image`)).resolves.toEqual({ mimeType: "image/png", data: png });
  });

  it("refuses a redirect to the metadata address even though the first hop was allowed", async () => {
    const error = await rejection(fetchMedia(`${origin}/redirect-to-metadata`));
    expect(error.message).toMatch(/169\.254\.169\.254.*not a public address/);
  });

  it("refuses a redirect to a non-http scheme", async () => {
    const error = await rejection(fetchMedia(`${origin}/redirect-to-file`));
    expect(error.message).toMatch(/file:/);
  });

  it("gives up after 3 redirects", async () => {
    const error = await rejection(fetchMedia(`${origin}/redirect-loop`));
    expect(error.message).toMatch(/more than 3 redirects/);
  });

  it("refuses a MIME type outside the allow-list", async () => {
    const error = await rejection(fetchMedia(`${origin}/page.html`));
    expect(error.message).toMatch(/text\/html, which is not allowed/);
  });

  it("refuses a body whose Content-Length exceeds the limit", async () => {
    const error = await rejection(fetchMedia(`${origin}/big-declared`));
    expect(error.message).toMatch(/1024-byte limit/);
  });

  it("refuses a body that grows past the limit while streaming", async () => {
    const error = await rejection(fetchMedia(`${origin}/big-chunked`));
    expect(error.message).toMatch(/1024-byte limit/);
  });

  it("reports an upstream error status", async () => {
    const error = await rejection(fetchMedia(`${origin}/missing`));
    expect(error.message).toMatch(/HTTP 404/);
  });

  it("never puts the path or query of the URL in the message", async () => {
    const error = await rejection(fetchMedia(`${origin}/missing?signature=secret`));
    expect(error.message).not.toMatch(/secret|missing/);
  });
});

describe("createSafeFetcher with allowPrivateAddresses", () => {
  it("reaches the local server, names included", async () => {
    const fetchMedia = createSafeFetcher({ ...base, allowPrivateAddresses: true });
    const port = new URL(origin).port;
    await expect(fetchMedia(`http://localhost:${port}/image.png`)).resolves.toEqual({
      mimeType: "image/png",
      data: png,
    });
  });
});

describe("createSafeFetcher with the operator's fetch.allow_private ranges", () => {
  it("reaches a listed private range and still refuses what is not listed", async () => {
    const fetchMedia = createSafeFetcher({ ...base, allowPrivate: parseAllowList("127.0.0.1/32, 10.1.2.0/24") });
    await expect(fetchMedia(`${origin}/image.png`)).resolves.toEqual({ mimeType: "image/png", data: png });
    const error = await rejection(fetchMedia("http://192.168.1.1/a.png"));
    expect(error.message).toMatch(/not a public address/);
  });

  it("never opens link-local or metadata addresses, even when a listed range covers them", async () => {
    const fetchMedia = createSafeFetcher({
      ...base,
      allowPrivate: parseAllowList("0.0.0.0/0, ::/0, 127.0.0.1/32"),
    });
    for (const url of [
      "http://169.254.169.254/latest/meta-data/",
      "http://100.100.100.200/latest/meta-data/",
      "http://[fe80::1]/a.png",
      "http://[fd00:ec2::254]/latest/meta-data/",
    ]) {
      const error = await rejection(fetchMedia(url));
      expect(error.message).toMatch(/not a public address/);
    }
    const redirected = await rejection(fetchMedia(`${origin}/redirect-to-metadata`));
    expect(redirected.message).toMatch(/169\.254\.169\.254.*not a public address/);
  });
});
