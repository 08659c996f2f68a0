import type { AddressInfo } from "node:net";
import express, { type ErrorRequestHandler, type RequestHandler } from "express";
import { afterEach, describe, expect, it } from "vitest";
import { createGatewayServer } from "../create-gateway-server.js";
import { loadBundledSpec } from "../load-bundled-spec.js";
import { noteClientBodyFields } from "../client-body-fields.js";
import { compileJsonBodyValidators } from "./compile-json-body-validators.js";
import { createFastLane } from "./create-fast-lane.js";

const validatorOptions = {
  validateRequests: { allowUnknownQueryParameters: true, coerceTypes: false, removeAdditional: false },
  validateResponses: false,
  validateSecurity: false,
  validateFormats: true,
};
const routes = compileJsonBodyValidators(loadBundledSpec("openai"), ["createChatCompletion"], validatorOptions);
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** An app whose only route is the fast lane's: what it declines reaches `express` (and is recorded there). */
async function startFastLaneApp(options: { authenticate?: RequestHandler } = {}) {
  const seen = {
    handled: [] as unknown[],
    clientFields: [] as unknown[],
    throughExpress: [] as unknown[],
    errors: [] as unknown[],
  };
  const app = express();
  const errorHandler: ErrorRequestHandler = (error, _request, response, _next) => {
    seen.errors.push(error);
    response.status((error as { status?: number }).status ?? 500).json({ failed: true });
  };
  const fastLane = createFastLane({
    app,
    routes,
    handlers: {
      createChatCompletion: (request, response) => {
        seen.handled.push(request.body);
        seen.clientFields.push([...(response.locals.clientBodyFields as Set<string>)]);
        response.json({ ok: true });
      },
    },
    authenticate: options.authenticate ?? ((_request, _response, next) => next()),
    errorHandler,
    jsonBodyLimitBytes: 1024,
    notePresentedBody: noteClientBodyFields,
    beforeHandler: [],
    explainUnparsableBody: async () => Object.assign(new Error("body-parser says no"), { status: 400 }),
    routeThroughExpress: (request, response) => {
      seen.throughExpress.push((request as { body?: unknown }).body);
      response.status(299).end();
    },
  });
  const declined: string[] = [];
  const server = createGatewayServer(
    Object.assign(
      (request: express.Request, response: express.Response) => {
        if (fastLane(request, response)) return;
        declined.push(`${request.method} ${request.url}`);
        response.status(298).end();
      },
      { request: app.request, response: app.response },
    ) as unknown as express.Express,
  ).listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const post = (path: string, body: string, headers: Record<string, string> = { "content-type": "application/json" }) =>
    fetch(`${url}${path}`, { method: "POST", headers, body }).then(async (response) => ({
      status: response.status,
      text: await response.text(),
    }));
  return { seen, declined, post };
}

const validChat = JSON.stringify({ model: "m", messages: [{ role: "user", content: "hi" }] });

describe("createFastLane", () => {
  it("serves a valid JSON call itself: body parsed, client fields noted before defaults, spec defaults applied", async () => {
    const { seen, declined, post } = await startFastLaneApp();
    expect(await post("/v1/chat/completions", validChat)).toEqual({ status: 200, text: '{"ok":true}' });
    expect(declined).toEqual([]);
    expect(seen.clientFields).toEqual([["model", "messages"]]);
    // the validator's defaults (the seed's temperature 0.7) are in the body the handler gets, as on the Express path
    expect(seen.handled[0]).toMatchObject({ model: "m", temperature: 0.7 });
  });

  it("declines what it does not decide: other paths and methods, query strings, content types, encodings, no or too large a length", async () => {
    const { seen, declined, post } = await startFastLaneApp();
    await post("/v1/embeddings", validChat);
    await post("/v1/chat/completions?x=1", validChat);
    await post("/v1/chat/completions", validChat, { "content-type": "text/plain" });
    await post("/v1/chat/completions", validChat, { "content-type": "application/json; charset=latin1" });
    await post("/v1/chat/completions", validChat, { "content-type": "application/json", "content-encoding": "gzip" });
    await post(
      "/v1/chat/completions",
      JSON.stringify({ model: "m", messages: [{ role: "user", content: "x".repeat(2000) }] }),
    );
    expect(declined).toHaveLength(6);
    expect(seen.handled).toEqual([]);
  });

  it("hands a body the spec rejects to the Express stack as the client sent it (no defaults written in)", async () => {
    const { seen, post } = await startFastLaneApp();
    const result = await post("/v1/chat/completions", JSON.stringify({ model: "m", messages: "not a list" }));
    expect(result.status).toBe(299);
    expect(seen.throughExpress).toEqual([{ model: "m", messages: "not a list" }]);
    expect(seen.handled).toEqual([]);
  });

  it("answers an unparsable body with the body parser's error through the error handler", async () => {
    const { seen, post } = await startFastLaneApp();
    expect((await post("/v1/chat/completions", '{"model":')).status).toBe(400);
    expect(String(seen.errors[0])).toContain("body-parser says no");
  });

  it("stops at an authentication error and renders it through the error handler", async () => {
    const authenticate: RequestHandler = () => {
      throw Object.assign(new Error("no key"), { status: 401 });
    };
    const { seen, post } = await startFastLaneApp({ authenticate });
    expect((await post("/v1/chat/completions", validChat)).status).toBe(401);
    expect(seen.handled).toEqual([]);
    expect(String(seen.errors[0])).toContain("no key");
  });
});
