import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
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

function deliverer(overrides: { allow?: (address: string) => boolean } = {}) {
  let clock = 1_767_225_600;
  const created = createCallbackDeliverer({
    isAllowedAddress: overrides.allow ?? ((address) => address === "127.0.0.1"),
    now: () => clock++,
  });
  closers.push(() => created.close());
  return created;
}

const body = JSON.stringify({ code: "success", message: "", data: { id: "task_1", status: "completed" } });

describe("createCallbackDeliverer", () => {
  it("signs every try afresh over the exact body, and names only the host when the receiver fails", async () => {
    const receiver = await startReceiver((index) => ({ status: index < 2 ? 500 : 204 }));
    const created = deliverer();
    const delivery = { taskId: "task_1", url: `${receiver.url}/hooks/video?token=abc`, body, secret: "whsec_test" };
    const outcomes = [
      await created.tryOnce(delivery),
      await created.tryOnce(delivery),
      await created.tryOnce(delivery),
    ];
    expect(outcomes.map(({ statusCode, succeeded, final }) => [statusCode, succeeded, final])).toEqual([
      [500, false, false],
      [500, false, false],
      [204, true, false],
    ]);
    expect(outcomes[0]?.errorMessage).toBe(`${new URL(receiver.url).host} answered HTTP 500`);
    expect(JSON.stringify(outcomes)).not.toContain("token=abc");
    expect(receiver.received).toHaveLength(3);
    for (const entry of receiver.received) {
      expect(entry.path).toBe("/hooks/video?token=abc");
      expect(entry.body).toBe(body);
      expect(entry.headers["content-type"]).toBe("application/json");
      const timestamp = Number(entry.headers["x-signature-timestamp"]);
      expect(entry.headers["x-signature"]).toBe(signCallbackBody("whsec_test", timestamp, entry.body));
    }
    expect(new Set(receiver.received.map((entry) => entry.headers["x-signature-timestamp"])).size).toBe(3);
  });

  it("refuses a loopback receiver the operator did not allow, as final, without connecting", async () => {
    const receiver = await startReceiver(() => ({ status: 200 }));
    const outcome = await deliverer({ allow: () => false }).tryOnce({
      taskId: "t",
      url: receiver.url,
      body,
      secret: "s",
    });
    expect(outcome).toMatchObject({ statusCode: null, succeeded: false, final: true });
    expect(outcome.errorMessage).toContain("is refused");
    expect(receiver.received).toHaveLength(0);
  });

  it("re-checks redirects: follows a 307 to an allowed address, refuses one to a disallowed address", async () => {
    const target = await startReceiver(() => ({ status: 200 }));
    const redirecting = await startReceiver(() => ({ status: 307, location: `${target.url}/moved` }));
    const created = deliverer();
    expect(await created.tryOnce({ taskId: "t", url: redirecting.url, body, secret: "s" })).toMatchObject({
      succeeded: true,
    });
    expect(target.received.map((entry) => [entry.path, entry.body])).toEqual([["/moved", body]]);

    const toMetadata = await startReceiver(() => ({
      status: 307,
      location: "http://169.254.169.254/latest/meta-data",
    }));
    const refused = await created.tryOnce({ taskId: "t", url: toMetadata.url, body, secret: "s" });
    expect(refused).toMatchObject({ succeeded: false, final: true });
    expect(refused.errorMessage).toContain("169.254.169.254 is refused");
  });

  it("does not follow a 302 (it would turn the POST into a GET)", async () => {
    const target = await startReceiver(() => ({ status: 200 }));
    const redirecting = await startReceiver(() => ({ status: 302, location: target.url }));
    const outcome = await deliverer().tryOnce({ taskId: "t", url: redirecting.url, body, secret: "s" });
    expect(outcome).toMatchObject({ statusCode: 302, succeeded: false, final: false });
    expect(target.received).toHaveLength(0);
  });

  it("takes only absolute http(s) URLs, as final refusals", async () => {
    const created = deliverer();
    for (const url of ["ftp://127.0.0.1/hook", "not a url"])
      expect(await created.tryOnce({ taskId: "t", url, body, secret: "s" })).toMatchObject({
        statusCode: null,
        succeeded: false,
        final: true,
      });
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
