import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendJsonAnswer } from "./send-json-answer.js";

const answer = {
  id: "chatcmpl-1",
  object: "chat.completion",
  choices: [{ index: 0, message: { role: "assistant", content: "héllo ✓ \u2028" } }],
};
const wrapped: unknown[] = [];
let server: Server;
let base: string;

beforeAll(async () => {
  const app = express();
  // The settings of the gateway's app (src/app.ts).
  app.disable("x-powered-by");
  app.disable("etag");
  app.post("/express", (_request, response) => void response.status(201).json(answer));
  app.post("/direct", (_request, response) => sendJsonAnswer(response.status(201), answer));
  app.post("/wrapped", (_request, response) => {
    // As express-openapi-validator's response validation does: its own `json` on this one response.
    const original = response.json.bind(response);
    response.json = (body: unknown) => {
      wrapped.push(body);
      return original(body);
    };
    sendJsonAnswer(response, answer);
  });
  server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

async function post(path: string) {
  const response = await fetch(`${base}${path}`, { method: "POST" });
  const headers = Object.fromEntries([...response.headers].filter(([name]) => name !== "date"));
  return { status: response.status, headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

describe("sendJsonAnswer", () => {
  it("sends the same status, headers and bytes as Express's response.json", async () => {
    const viaExpress = await post("/express");
    const direct = await post("/direct");
    expect(direct).toEqual(viaExpress);
    expect(direct.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(Number(direct.headers["content-length"])).toBe(direct.bytes.length);
    expect(JSON.parse(direct.bytes.toString("utf8"))).toEqual(answer);
  });

  it("hands the answer to a json wrapper installed on the response, so that it validates what is sent", async () => {
    wrapped.length = 0;
    const viaWrapper = await post("/wrapped");
    expect(wrapped).toEqual([answer]);
    expect(JSON.parse(viaWrapper.bytes.toString("utf8"))).toEqual(answer);
  });
});
