import { readFileSync } from "node:fs";
import type http from "node:http";
import path from "node:path";
import type { AddressInfo } from "node:net";
import BetterSqlite3 from "better-sqlite3";
import { createParser, type EventSourceMessage } from "eventsource-parser";
import express from "express";
import { createGatewayServer } from "../../src/http/create-gateway-server.js";
import { createSseWriter } from "../../src/http/sse-writer.js";
import { createCollectingController } from "../../src/upstream/create-collecting-controller.js";
import type { StreamEventTransformer } from "../../src/upstream/stream-event-transformer.js";
import { createOpenRelayRegistry } from "../../src/relay/create-open-relay-registry.js";
import { createCommitWindow } from "../../src/store/quota/create-commit-window.js";
import { createNativeEventToChatTransform } from "../../src/providers/native/chat/create-native-event-to-chat-transform.js";
import { createNativeEventToResponsesTransform } from "../../src/providers/native/responses/create-native-event-to-responses-transform.js";
import { echoResponseSettings } from "../../src/http/echo-response-settings.js";
import { findProjectRoot } from "../../src/http/find-project-root.js";

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

// The stream translators are per-request objects of the hot path too: each one, after a whole recorded stream, keeps
// fast properties and the same shape as the one before it.
const nativeFixture = (name: string) =>
  readFileSync(path.join(findProjectRoot(), "src/providers/native/__fixtures__", name), "utf8");
const nativeEvents = (text: string) => {
  const events: EventSourceMessage[] = [];
  createParser({ onEvent: (event) => void events.push(event) }).feed(text);
  return events;
};
const runTransformer = (transformer: StreamEventTransformer, events: EventSourceMessage[]) => {
  const frames = createCollectingController<string>();
  for (const event of events) transformer.transform(event, frames.controller);
  transformer.flush?.(frames.controller);
  return transformer;
};
const responsesEvents = nativeEvents(nativeFixture("stream-text-signature.chunks.txt"));
const responsesTransformers = [0, 1].map(() =>
  runTransformer(
    createNativeEventToResponsesTransform({
      model: "gmx-3.5-flash",
      includeThoughts: true,
      created: 1,
      settings: echoResponseSettings({ model: "gmx-3.5-flash", input: "hello" }),
      now: () => 2,
      onUsage: () => undefined,
    }).transformer,
    responsesEvents,
  ),
);
const chatEvents = nativeEvents(nativeFixture("stream-two-candidates.chunks.txt"));
const chatTransformers = [0, 1].map(() =>
  runTransformer(
    createNativeEventToChatTransform({
      model: "gmx-3.5-flash",
      includeThoughts: true,
      includeUsage: true,
      created: 1,
      onUsage: () => undefined,
    }),
    chatEvents,
  ),
);

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
    nativeToResponsesTransformIsFast: responsesTransformers.every(hasFastProperties),
    nativeToResponsesTransformsShareOneShape: haveSameMap(responsesTransformers[0]!, responsesTransformers[1]!),
    nativeToChatTransformIsFast: chatTransformers.every(hasFastProperties),
    nativeToChatTransformsShareOneShape: haveSameMap(chatTransformers[0]!, chatTransformers[1]!),
  }),
);
connection.close();
