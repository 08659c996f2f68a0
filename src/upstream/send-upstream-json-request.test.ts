import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { ChannelAttempt } from "../providers/contract/channel-attempt.js";
import { ClientGoneSignal } from "../http/client-gone-signal.js";
import { closeUpstreamDispatchers } from "./get-upstream-dispatcher.js";
import { maximumUpstreamAnswerSize } from "./send-upstream-buffered-request.js";
import { sendUpstreamJsonRequest, sendUpstreamJsonRequestKeepingBytes } from "./send-upstream-json-request.js";
import type { UpstreamRequest } from "./send-upstream-request.js";
import { UpstreamFailure } from "./upstream-failure.js";
import { rejectionOf } from "../../test/support/rejection-of.js";

let answer: http.RequestListener = (_request, response) => response.end("{}");
const received: Array<{ method: string; url: string; body: string; closedEarly: boolean }> = [];
const server = http.createServer((request, response) => {
  const entry = { method: request.method ?? "", url: request.url ?? "", body: "", closedEarly: false };
  received.push(entry);
  request.on("data", (chunk: Buffer) => (entry.body += chunk.toString("utf8")));
  response.on("close", () => (entry.closedEarly = !response.writableFinished));
  request.on("end", () => answer(request, response));
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/base`;

afterAll(async () => {
  await closeUpstreamDispatchers();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  received.length = 0;
});

function attemptFor(options: { id?: number; baseUrl?: string; headerMs?: number } = {}): ChannelAttempt {
  return {
    channel: {
      id: options.id ?? 1,
      baseUrl: options.baseUrl ?? baseUrl,
      keys: ["upstream-secret"],
      timeouts: { connectMs: 1000, headerMs: options.headerMs ?? 2000, idleMs: 2000 },
    },
    group: "default",
    upstreamModel: "model-a",
    upstreamKey: "upstream-secret",
  } as unknown as ChannelAttempt;
}

function chatRequest(signal = new ClientGoneSignal()): UpstreamRequest {
  return {
    method: "POST",
    path: "/v1/chat/completions",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: "model-a" }),
    signal,
  };
}

const failureOf = (pending: Promise<unknown>) => rejectionOf(pending, UpstreamFailure);

describe("sendUpstreamJsonRequest", () => {
  it("sends the request under the channel's base path and parses a JSON answer that arrives in pieces", async () => {
    // "é" (two bytes in UTF-8) split across two writes, after a byte order mark.
    const bytes = Buffer.from('\ufeff{"text":"café","n":[1,2]}', "utf8");
    const splitAt = bytes.indexOf(0xc3) + 1;
    answer = (_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.write(bytes.subarray(0, splitAt));
      setTimeout(() => response.end(bytes.subarray(splitAt)), 5);
    };
    const signal = new ClientGoneSignal();
    const result = await sendUpstreamJsonRequest<{ text: string; n: number[] }>(attemptFor(), chatRequest(signal));
    expect(result).toEqual({ text: "café", n: [1, 2] });
    expect(received).toEqual([
      { method: "POST", url: "/base/v1/chat/completions", body: '{"model":"model-a"}', closedEarly: false },
    ]);
    expect(signal.listenerCount("abort")).toBe(0);
  });

  it("turns an error status into our error with the upstream's message and Retry-After, retryable for 429", async () => {
    answer = (_request, response) => {
      response.writeHead(429, { "content-type": "application/json", "retry-after": "7" });
      response.end(
        JSON.stringify({ error: { message: "Rate limit reached", type: "requests", code: "rate_limit_exceeded" } }),
      );
    };
    const failure = await failureOf(sendUpstreamJsonRequest(attemptFor(), chatRequest()));
    expect(failure).toMatchObject({ status: 429, code: "rate_limit_exceeded", retryable: true, retryAfterSeconds: 7 });
    expect(failure.message).toBe("Upstream error (429): Rate limit reached");

    answer = (_request, response) => {
      response.writeHead(400, { "content-type": "application/json" });
      response.end(JSON.stringify({ error: { message: "bad field", type: "invalid_request_error" } }));
    };
    expect(await failureOf(sendUpstreamJsonRequest(attemptFor(), chatRequest()))).toMatchObject({
      status: 400,
      code: "invalid_request",
      retryable: false,
    });
  });

  it("answers a 2xx body that is not JSON, or that breaks off, with a retryable 502", async () => {
    answer = (_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end("<html>oops</html>");
    };
    expect(await failureOf(sendUpstreamJsonRequest(attemptFor(), chatRequest()))).toMatchObject({
      status: 502,
      code: "bad_response",
      retryable: true,
      message: "The upstream answered with a body that is not JSON.",
    });

    answer = (_request, response) => {
      response.writeHead(200, { "content-type": "application/json", "content-length": "100" });
      response.write('{"partial":');
      setTimeout(() => response.socket?.destroy(), 5);
    };
    expect(await failureOf(sendUpstreamJsonRequest(attemptFor(), chatRequest()))).toMatchObject({
      status: 502,
      code: "bad_response",
      retryable: true,
      message: "The upstream answer broke off before it was complete.",
    });
  });

  it("answers a refused connection with a retryable 502 and a missing answer with a retryable 504", async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const closedUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));
    expect(
      await failureOf(sendUpstreamJsonRequest(attemptFor({ id: 2, baseUrl: closedUrl }), chatRequest())),
    ).toMatchObject({
      status: 502,
      code: "bad_response",
      retryable: true,
      message: "The upstream provider could not be reached.",
    });

    answer = () => undefined; // never answers
    expect(await failureOf(sendUpstreamJsonRequest(attemptFor({ id: 3, headerMs: 200 }), chatRequest()))).toMatchObject(
      {
        status: 504,
        code: "request_timeout",
        retryable: true,
      },
    );
  });

  it("aborts the upstream call when the client leaves, with the client's reason, and never starts for a client already gone", async () => {
    answer = () => undefined; // never answers
    const signal = new ClientGoneSignal();
    const pending = sendUpstreamJsonRequest(attemptFor(), chatRequest(signal));
    while (received.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const reason = new Error("client disconnected");
    signal.abort(reason);
    await expect(pending).rejects.toBe(reason);
    while (!received[0]!.closedEarly) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(signal.listenerCount("abort")).toBe(0);

    received.length = 0;
    const gone = new ClientGoneSignal();
    const early = new Error("gone before the call");
    gone.abort(early);
    await expect(sendUpstreamJsonRequest(attemptFor(), chatRequest(gone))).rejects.toBe(early);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(received).toEqual([]);
  });

  it("stops reading an answer past the size limit: a 502 that is not retried, and the upstream connection dropped", async () => {
    const padded = (length: number) => JSON.stringify({ text: "x".repeat(length - 12) });
    answer = (_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      const body = Buffer.from(padded(100));
      response.write(body.subarray(0, 40));
      // The rest never comes: only the gateway dropping the connection closes this answer (no race with an end).
      setTimeout(() => response.write(body.subarray(40, 80)), 5);
    };
    const failure = await failureOf(sendUpstreamJsonRequest(attemptFor({ id: 31 }), chatRequest(), 64));
    expect(failure).toMatchObject({ status: 502, code: "bad_response", retryable: false });
    expect(failure.message).toBe(
      "The upstream answer is larger than 64 bytes; the gateway does not relay answers that large.",
    );
    await vi.waitFor(() => expect(received.map((entry) => entry.closedEarly)).toEqual([true]));

    answer = (_request, response) => response.end(padded(64));
    await expect(sendUpstreamJsonRequest(attemptFor({ id: 31 }), chatRequest(), 64)).resolves.toEqual({
      text: "x".repeat(52),
    });
    expect(maximumUpstreamAnswerSize).toBe(256 * 1024 * 1024);
  });

  it("reads an error answer up to 64 KiB for its message and keeps the status mapping", async () => {
    answer = (_request, response) => {
      response.writeHead(503, { "content-type": "application/json" });
      response.end(JSON.stringify({ error: { message: "overloaded" }, padding: "x".repeat(200_000) }));
    };
    const failure = await failureOf(sendUpstreamJsonRequest(attemptFor({ id: 32 }), chatRequest()));
    expect(failure).toMatchObject({ status: 502, code: "upstream_error", retryable: true });
    // Cut at 64 KiB the body is no longer JSON: the message is its start, as for any body that is not JSON.
    expect(failure.message).toBe(
      `Upstream error (503): ${JSON.stringify({ error: { message: "overloaded" }, padding: "x".repeat(200_000) }).slice(0, 200)}`,
    );
  });

  it("reads a large answer of declared length whole, in pieces, and keeps its bytes without the byte order mark", async () => {
    const image = "A".repeat(3 * 1024 * 1024);
    const text = `{"created":1,"data":[{"b64_json":"${image}"}]}`;
    answer = (_request, response) => {
      const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]);
      response.writeHead(200, { "content-type": "application/json", "content-length": bytes.length });
      let offset = 0;
      const writeSome = () => {
        if (offset >= bytes.length) return void response.end();
        response.write(bytes.subarray(offset, offset + 100_000));
        offset += 100_000;
        setImmediate(writeSome);
      };
      writeSome();
    };
    const kept = await sendUpstreamJsonRequestKeepingBytes<{ data: Array<{ b64_json: string }> }>(
      attemptFor(),
      chatRequest(),
    );
    expect(kept.answer.data[0]!.b64_json).toBe(image);
    expect(kept.bytes.toString("utf8")).toBe(text);
  });
});
