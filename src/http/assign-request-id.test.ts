import type { IncomingMessage, ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { assignRequestId } from "./assign-request-id.js";
import { readRequestIds } from "./read-request-ids.js";

function exchange(sent?: string) {
  const headers: Record<string, string> = {};
  const request = { headers: sent === undefined ? {} : { "x-request-id": sent } } as unknown as IncomingMessage;
  const response = {
    setHeader: (name: string, value: string) => {
      headers[name.toLowerCase()] = value;
    },
  } as unknown as ServerResponse;
  return { request, response, headers };
}

describe("assignRequestId", () => {
  it("keeps a sane client id for the answer and the logs, and a unique id of ours for the ledger", () => {
    const { request, response, headers } = exchange("client-42.abc:def@x_y");
    expect(assignRequestId(request, response)).toBe("client-42.abc:def@x_y");
    expect(headers["x-request-id"]).toBe("client-42.abc:def@x_y");
    const ids = readRequestIds(request);
    expect(ids.requestId).toBe("client-42.abc:def@x_y");
    expect(ids.ledgerRequestId).toMatch(/^req_[0-9a-f]{32}$/);
  });

  it.each(["", "has space", 'quote"', "x".repeat(129), "line\nbreak", "ünïcode"])(
    "replaces an unsafe client id (%j) by ours",
    (sent) => {
      const { request, response, headers } = exchange(sent);
      const id = assignRequestId(request, response);
      expect(id).toMatch(/^req_[0-9a-f]{32}$/);
      expect(headers["x-request-id"]).toBe(id);
      expect(readRequestIds(request).ledgerRequestId).toBe(id);
    },
  );

  it("makes one when the client sent none", () => {
    const { request, response } = exchange();
    expect(assignRequestId(request, response)).toMatch(/^req_/);
  });
});
