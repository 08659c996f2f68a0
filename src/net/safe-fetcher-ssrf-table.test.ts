import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildSsrfUrlTable } from "../../test/support/ssrf-url-table.js";
import { rejectionOf } from "../../test/support/rejection-of.js";
import { InvalidRequestError } from "../errors/gateway-error.js";
import { createSafeFetcher } from "./create-safe-fetcher.js";

// The SSRF table through the shared fetcher every entry point uses (chat media, image references, and the
// video references and callbacks built on it): each URL refused before any connection is made.
const png = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
let server: http.Server;
let port: number;
let connections = 0;

beforeAll(async () => {
  server = http.createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    const target = url.searchParams.get("to");
    if (url.pathname === "/redirect" && target) {
      response.writeHead(302, { location: target }).end();
      return;
    }
    response.writeHead(200, { "content-type": "image/png" }).end(png);
  });
  server.on("connection", () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const options = { maxBytes: 1024, allowedMimeTypes: ["image/png"], timeoutMs: 3_000 };
// A test resolver: these names resolve to private addresses (and one to a public and a private address at once).
const testResolver = async (hostname: string) => {
  const answers: Record<string, string[]> = {
    "internal.test": ["10.1.2.3"],
    "metadata.test": ["169.254.169.254"],
    "loopback.test": ["127.0.0.1"],
    "v6-loopback.test": ["::1"],
    "rebinding.test": ["93.184.216.34", "127.0.0.1"],
    "ula.test": ["fd12:3456::1"],
  };
  const addresses = answers[hostname];
  if (!addresses) throw Object.assign(new Error(`no such host ${hostname}`), { code: "ENOTFOUND" });
  return addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
};

describe("the SSRF table through the shared safe fetcher", () => {
  it("refuses every URL of the table before connecting", async () => {
    const fetchMedia = createSafeFetcher({ ...options, resolve: testResolver });
    const table = buildSsrfUrlTable(port);
    expect(table.length).toBeGreaterThanOrEqual(40);
    const before = connections;
    for (const entry of table) {
      const error = await rejectionOf(fetchMedia(entry.url), InvalidRequestError);
      expect(error.status, entry.name).toBe(400);
      expect(error.code, entry.name).toBe("invalid_media_url");
    }
    expect(connections - before).toBe(0);
  });

  it.each(["internal.test", "metadata.test", "loopback.test", "v6-loopback.test", "rebinding.test", "ula.test"])(
    "refuses %s, a name that resolves to a private address",
    async (hostname) => {
      const fetchMedia = createSafeFetcher({ ...options, resolve: testResolver });
      const before = connections;
      const error = await rejectionOf(fetchMedia(`http://${hostname}:${port}/image.png`), InvalidRequestError);
      expect(error.message).toMatch(/not a public address/);
      expect(connections - before).toBe(0);
    },
  );

  it.each([
    "http://169.254.169.254/latest/meta-data/",
    "http://10.0.0.1/",
    "http://[::1]/",
    "http://[fd00::1]/",
    "http://100.64.0.1/",
    "http://internal.test/",
    "file:///etc/passwd",
    "http://user:pass@example.com/",
  ])("refuses a redirect to %s after an allowed first hop", async (target) => {
    // Only the first hop's own address is allowed; the redirect target is judged on its own.
    const fetchMedia = createSafeFetcher({
      ...options,
      resolve: testResolver,
      allowAddress: (address) => address === "127.0.0.1",
    });
    const first = `http://127.0.0.1:${port}/redirect?to=${encodeURIComponent(target)}`;
    const error = await rejectionOf(fetchMedia(first), InvalidRequestError);
    expect(error.code).toBe("invalid_media_url");
  });

  it("refuses bytes that are not the content type the server declared", async () => {
    const lying = http.createServer((_request, response) =>
      response.writeHead(200, { "content-type": "image/png" }).end("<html>not a png</html>"),
    );
    await new Promise<void>((resolve) => lying.listen(0, "127.0.0.1", resolve));
    try {
      const fetchMedia = createSafeFetcher({ ...options, allowAddress: (address) => address === "127.0.0.1" });
      const error = await rejectionOf(
        fetchMedia(`http://127.0.0.1:${(lying.address() as AddressInfo).port}/x.png`),
        InvalidRequestError,
      );
      expect(error.message).toMatch(/bytes that are not image\/png/);
    } finally {
      lying.closeAllConnections();
      await new Promise((resolve) => lying.close(resolve));
    }
  });
});
