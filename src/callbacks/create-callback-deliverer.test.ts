import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { CallbackDeliveryRecord } from "../store/callback-deliveries/callback-delivery-record.js";
import { assertCallbackUrl } from "./assert-callback-url.js";
import { createCallbackDeliverer } from "./create-callback-deliverer.js";
import { signCallbackBody } from "./sign-callback-body.js";

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A receiver on 127.0.0.1 answering with `statuses` in turn (the last one from then on). */
async function startReceiver(answer: (index: number, request: Received) => { status: number; location?: string }) {
  const received: Received[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const entry = { path: request.url ?? "", headers: request.headers, body: Buffer.concat(chunks).toString("utf8") };
      received.push(entry);
      const { status, location } = answer(received.length - 1, entry);
      response.writeHead(status, location === undefined ? {} : { location });
      response.end();
    });
  });
  server.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", resolve));
  closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}

function deliverer(records: CallbackDeliveryRecord[], overrides: { allow?: (address: string) => boolean } = {}) {
  let clock = 1_767_225_600;
  const created = createCallbackDeliverer({
    isAllowedAddress: overrides.allow ?? ((address) => address === "127.0.0.1"),
    backoffMs: 5,
    now: () => clock++,
    record: async (attempt) => {
      records.push(attempt);
    },
  });
  closers.push(() => created.close());
  return created;
}

const body = JSON.stringify({ code: "success", message: "", data: { id: "task_1", status: "completed" } });

describe("createCallbackDeliverer", () => {
  it("retries a receiver that fails four times, then delivers; every try signed afresh and recorded", async () => {
    const receiver = await startReceiver((index) => ({ status: index < 4 ? 500 : 204 }));
    const records: CallbackDeliveryRecord[] = [];
    const delivered = await deliverer(records).deliver({
      taskId: "task_1",
      url: `${receiver.url}/hooks/video?token=abc`,
      body,
      secret: "whsec_test",
    });
    expect(delivered).toBe(true);
    expect(receiver.received).toHaveLength(5);
    for (const entry of receiver.received) {
      expect(entry.path).toBe("/hooks/video?token=abc");
      expect(entry.body).toBe(body);
      expect(entry.headers["content-type"]).toBe("application/json");
      const timestamp = Number(entry.headers["x-signature-timestamp"]);
      expect(entry.headers["x-signature"]).toBe(signCallbackBody("whsec_test", timestamp, entry.body));
    }
    const timestamps = receiver.received.map((entry) => entry.headers["x-signature-timestamp"]);
    expect(new Set(timestamps).size).toBe(5);
    expect(records.map(({ attempt, statusCode, succeeded }) => [attempt, statusCode, succeeded])).toEqual([
      [1, 500, false],
      [2, 500, false],
      [3, 500, false],
      [4, 500, false],
      [5, 204, true],
    ]);
    expect(records[0]?.errorMessage).toBe(`${new URL(receiver.url).host} answered HTTP 500`);
    expect(JSON.stringify(records)).not.toContain("token=abc");
  });

  it("gives up after six tries in all", async () => {
    const receiver = await startReceiver(() => ({ status: 503 }));
    const records: CallbackDeliveryRecord[] = [];
    expect(await deliverer(records).deliver({ taskId: "t", url: receiver.url, body, secret: "s" })).toBe(false);
    expect(receiver.received).toHaveLength(6);
    expect(records.map((record) => record.attempt)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it("refuses a loopback receiver the operator did not allow, once, without retrying", async () => {
    const receiver = await startReceiver(() => ({ status: 200 }));
    const records: CallbackDeliveryRecord[] = [];
    const delivered = await deliverer(records, { allow: () => false }).deliver({
      taskId: "t",
      url: receiver.url,
      body,
      secret: "s",
    });
    expect(delivered).toBe(false);
    expect(receiver.received).toHaveLength(0);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ attempt: 1, statusCode: null, succeeded: false });
    expect(records[0]?.errorMessage).toContain("is refused");
  });

  it("re-checks redirects: follows a 307 to an allowed address, refuses one to a disallowed address", async () => {
    const target = await startReceiver(() => ({ status: 200 }));
    const redirecting = await startReceiver(() => ({ status: 307, location: `${target.url}/moved` }));
    const records: CallbackDeliveryRecord[] = [];
    expect(await deliverer(records).deliver({ taskId: "t", url: redirecting.url, body, secret: "s" })).toBe(true);
    expect(target.received.map((entry) => [entry.path, entry.body])).toEqual([["/moved", body]]);

    const toMetadata = await startReceiver(() => ({
      status: 307,
      location: "http://169.254.169.254/latest/meta-data",
    }));
    const refused: CallbackDeliveryRecord[] = [];
    expect(await deliverer(refused).deliver({ taskId: "t", url: toMetadata.url, body, secret: "s" })).toBe(false);
    expect(refused).toHaveLength(1);
    expect(refused[0]?.errorMessage).toContain("169.254.169.254 is refused");
  });

  it("does not follow a 302 (it would turn the POST into a GET)", async () => {
    const target = await startReceiver(() => ({ status: 200 }));
    const redirecting = await startReceiver(() => ({ status: 302, location: target.url }));
    const records: CallbackDeliveryRecord[] = [];
    const created = createCallbackDeliverer({
      isAllowedAddress: (address) => address === "127.0.0.1",
      backoffMs: 1,
      tries: 2,
      now: () => 1,
      record: async (attempt) => {
        records.push(attempt);
      },
    });
    closers.push(() => created.close());
    expect(await created.deliver({ taskId: "t", url: redirecting.url, body, secret: "s" })).toBe(false);
    expect(target.received).toHaveLength(0);
    expect(records.map((record) => record.statusCode)).toEqual([302, 302]);
  });

  it("stops waiting retries when closed", async () => {
    const receiver = await startReceiver(() => ({ status: 500 }));
    const records: CallbackDeliveryRecord[] = [];
    const created = createCallbackDeliverer({
      isAllowedAddress: (address) => address === "127.0.0.1",
      backoffMs: 60_000,
      now: () => 1,
      record: async (attempt) => {
        records.push(attempt);
      },
    });
    const pending = created.deliver({ taskId: "t", url: receiver.url, body, secret: "s" });
    while (records.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    await created.close();
    expect(await pending).toBe(false);
    expect(receiver.received).toHaveLength(1);
  });
});

describe("assertCallbackUrl", () => {
  it("takes absolute http(s) URLs only, without credentials", () => {
    expect(assertCallbackUrl("https://client.example.com/hook?x=1")).toBe("https://client.example.com/hook?x=1");
    expect(() => assertCallbackUrl("ftp://client.example.com/hook")).toThrow(
      "metadata.callback_url must use http or https, not ftp.",
    );
    expect(() => assertCallbackUrl("/relative")).toThrow("metadata.callback_url must be an absolute http(s) URL.");
    expect(() => assertCallbackUrl("https://user:pw@client.example.com/")).toThrow(
      "metadata.callback_url must not carry credentials.",
    );
  });
});
