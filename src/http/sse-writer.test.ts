import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createSseWriter, type SseWriter } from "./sse-writer.js";

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function startServer(handler: (writer: SseWriter, response: http.ServerResponse) => void): Promise<number> {
  const server = http.createServer((_request, response) => handler(createSseWriter(response), response));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return (server.address() as AddressInfo).port;
}

/** The raw reads a client socket gets for one GET, until `until` matches what arrived so far. */
function readRaw(port: number, until: RegExp): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const reads: string[] = [];
    const socket = net.connect(port, "127.0.0.1", () => socket.write("GET / HTTP/1.1\r\nHost: test\r\n\r\n"));
    socket.on("data", (chunk: Buffer) => {
      reads.push(chunk.toString("utf8"));
      if (until.test(reads.join(""))) {
        socket.destroy();
        resolve(reads);
      }
    });
    socket.on("error", reject);
  });
}

describe("createSseWriter", () => {
  it("sends the headers together with an event written in the same turn: one write, one read for the client", async () => {
    let headersSentAtCreation: boolean | undefined;
    const port = await startServer((writer, response) => {
      headersSentAtCreation = response.headersSent;
      void writer.send('{"n":1}');
    });
    const reads = await readRaw(port, /data: \{"n":1\}\n\n/);
    expect(headersSentAtCreation).toBe(false);
    expect(reads).toHaveLength(1);
    expect(reads[0]).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(reads[0]).toContain("Content-Type: text/event-stream; charset=utf-8\r\n");
    expect(reads[0]).toContain("X-Accel-Buffering: no\r\n");
  });

  it("holds the headers until the first event, so a stream that fails before it can still be answered another way", async () => {
    const headersSent: boolean[] = [];
    const port = await startServer((writer, response) => {
      setTimeout(() => {
        headersSent.push(response.headersSent);
        void writer.send('{"n":1}');
      }, 30);
    });
    const reads = await readRaw(port, /data: \{"n":1\}\n\n/);
    expect(headersSent).toEqual([false]);
    expect(reads).toHaveLength(1);
    expect(reads[0]).toMatch(
      /^HTTP\/1\.1 200 OK\r\n[\s\S]*Cache-Control: no-cache, no-transform\r\n[\s\S]*\r\n\r\n[0-9a-f]+\r\ndata: \{"n":1\}\n\n\r\n$/,
    );
  });

  it("frames multi-line data and names events, refusing a line break in an event name", async () => {
    const port = await startServer((writer) => {
      void writer.send("first\nsecond", { event: "delta", id: "7" });
      expect(() => writer.send("x", { event: "bad\nevent" })).toThrow("SSE event must not contain CR or LF");
    });
    const reads = await readRaw(port, /data: second\n\n/);
    expect(reads.join("")).toContain("event: delta\nid: 7\ndata: first\ndata: second\n\n");
  });
});
