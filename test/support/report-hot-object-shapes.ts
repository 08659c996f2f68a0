import type http from "node:http";
import type { AddressInfo } from "node:net";
import BetterSqlite3 from "better-sqlite3";
import express from "express";
import { createGatewayServer } from "../../src/http/create-gateway-server.js";
import { createSseWriter } from "../../src/http/sse-writer.js";
import { createCollectingController } from "../../src/upstream/create-collecting-controller.js";
import { createOpenRelayRegistry } from "../../src/relay/create-open-relay-registry.js";
import { createCommitWindow } from "../../src/store/quota/create-commit-window.js";

// Run with `node --allow-natives-syntax` (src/http/create-gateway-server.test.ts): prints, as JSON, whether V8 keeps
// the objects of the request path in fast mode (not property dictionaries) and gives the server's responses and
// requests one shape each.
const hasFastProperties = new Function("object", "return %HasFastProperties(object)") as (object: object) => boolean;
const haveSameMap = new Function("left", "right", "return %HaveSameMap(left, right)") as (
  left: object,
  right: object,
) => boolean;

const requests: http.IncomingMessage[] = [];
const responses: http.ServerResponse[] = [];
let sseWriterIsFast = false;
const app = express();
app.get("/json", (request, response) => {
  requests.push(request);
  responses.push(response);
  response.json({ ok: true });
});
app.get("/sse", (_request, response) => {
  const writer = createSseWriter(response);
  sseWriterIsFast = hasFastProperties(writer);
  void writer.send("one").then(() => writer.close());
});
const server = createGatewayServer(app);
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
for (let index = 0; index < 3; index += 1) await (await fetch(`${origin}/json`)).text();
await (await fetch(`${origin}/sse`)).text();
server.closeAllConnections();
server.close();

const connection = new BetterSqlite3(":memory:");
const commitWindow = createCommitWindow(connection, { intervalMs: 10, onCommitError: () => undefined });
console.log(
  JSON.stringify({
    responsesAreFast: responses.every(hasFastProperties),
    requestsAreFast: requests.every(hasFastProperties),
    responsesShareOneShape: haveSameMap(responses[1]!, responses[2]!),
    requestsShareOneShape: haveSameMap(requests[1]!, requests[2]!),
    responsesHaveTheAppPrototype: responses.every((response) => Object.getPrototypeOf(response) === app.response),
    sseWriterIsFast,
    collectingControllerIsFast: hasFastProperties(createCollectingController<string>()),
    openRelayRegistryIsFast: hasFastProperties(createOpenRelayRegistry()),
    commitWindowIsFast: hasFastProperties(commitWindow),
  }),
);
connection.close();
