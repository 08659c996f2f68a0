import http from "node:http";
import type { AddressInfo } from "node:net";
import { Pool } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { ClientGoneSignal } from "./client-gone-signal.js";

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function startServer(handler: http.RequestListener): Promise<Pool> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const pool = new Pool(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  closers.push(async () => {
    await pool.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return pool;
}

describe("ClientGoneSignal", () => {
  it("aborts an undici request in flight with its reason, as an AbortSignal would", async () => {
    let received = 0;
    const pool = await startServer(() => {
      received += 1; // never answers
    });
    const signal = new ClientGoneSignal();
    const pending = pool.request({ path: "/", method: "GET", signal });
    while (received === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const reason = new Error("client disconnected");
    signal.abort(reason);
    await expect(pending).rejects.toBe(reason);
    expect(signal.aborted).toBe(true);
    signal.abort(new Error("again"));
    expect(signal.reason).toBe(reason);
  });

  it("lets go of its listener once the request is done, and refuses to start when already aborted", async () => {
    const pool = await startServer((request, response) => response.end("ok"));
    const signal = new ClientGoneSignal();
    const answer = await pool.request({ path: "/", method: "GET", signal });
    expect(await answer.body.text()).toBe("ok");
    // undici lets go when the body stream closes, a turn after it was read.
    await new Promise((resolve) => setImmediate(resolve));
    expect(signal.listenerCount("abort")).toBe(0);
    signal.abort(new Error("gone before the call"));
    await expect(pool.request({ path: "/", method: "GET", signal })).rejects.toThrow("gone before the call");
  });
});
