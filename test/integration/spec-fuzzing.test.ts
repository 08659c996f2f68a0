import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeNativeUpstream } from "../../mocks/upstreams/native/fake-native-types.js";
import { startFakeAnthropicServer } from "../../mocks/upstreams/anthropic/start-fake-anthropic-server.js";
import { startFakeNativeServer } from "../../mocks/upstreams/native/start-fake-native-server.js";
import { startFakeOpenaiServer, type FakeUpstream } from "../../mocks/upstreams/openai/start-fake-openai-server.js";
import { selectApiGeneration, type ApiGeneration } from "../../src/http/api-generation.js";
import { loadBundledSpec } from "../../src/http/load-bundled-spec.js";
import { openTestDatabases } from "../../src/store/testing/open-test-databases.js";
import { createSignedInUser } from "../support/create-signed-in-user.js";
import { createTokenForTest } from "../support/create-token-for-test.js";
import { revealApiKey } from "../support/reveal-api-key.js";
import { type RawAnswer, type RawRequest, sendRawRequest } from "../support/send-raw-request.js";
import { startTestGateway, type TestGateway } from "../support/start-test-gateway.js";

// Issue 17's suite, spec-driven fuzzing: for every operation of the three bundled specs, fast-check generates bad
// input of 20 kinds from the operation's own example, schema and parameters. Every answer must be below 500 (except
// the documented upstream/channel answers and the 501 of operations still pending), every error must be in its
// generation's envelope, and the gateway must still answer at the end. Runs are seeded (FUZZ_SEED to replay) and
// bounded (FUZZ_RUNS per kind and operation, default 3).
// On both databases: PostgreSQL refuses what SQLite stores (a NUL character in text, a number past 32 bits in an
// integer column), and such an input once answered 500 there only.
const testDatabases = await openTestDatabases();

const seed = Number(process.env.FUZZ_SEED ?? 17_2026);
const runsPerKind = Number(process.env.FUZZ_RUNS ?? 3);

type JsonObject = Record<string, unknown>;

interface Operation {
  generation: ApiGeneration;
  method: string;
  pathTemplate: string;
  operationId: string;
  contentType: string | undefined;
  example: unknown;
  schema: JsonObject | undefined;
  pathParameters: string[];
  requiredQuery: Record<string, string>;
  /** Query parameters whose schema is an integer. */
  integerQuery: string[];
}

/** Follows local `$ref`s of a bundled spec. */
function resolve(spec: JsonObject, value: unknown): JsonObject | undefined {
  let current = value as JsonObject | undefined;
  for (let depth = 0; current && typeof current.$ref === "string" && depth < 20; depth++) {
    current = (current.$ref as string)
      .slice(2)
      .split("/")
      .reduce<unknown>((node, segment) => (node as JsonObject)?.[segment], spec) as JsonObject | undefined;
  }
  return current;
}

/** Each generation's bundled spec, read once. */
const specs = Object.fromEntries(
  (["management", "openai", "native", "anthropic"] as const).map((generation) => [
    generation,
    loadBundledSpec(generation) as JsonObject,
  ]),
) as Record<ApiGeneration, JsonObject>;

function isIntegerSchema(schema: JsonObject | undefined): boolean {
  const type = schema?.type;
  return type === "integer" || (Array.isArray(type) && type.includes("integer"));
}

/**
 * The body's top-level fields that hold an integer, or an array of integers, each with the value that puts `number`
 * there.
 */
function integerFields(operation: Operation): [string, (number: number) => unknown][] {
  if (operation.contentType !== "application/json") return [];
  const spec = specs[operation.generation];
  const properties = (operation.schema?.properties as Record<string, JsonObject> | undefined) ?? {};
  return Object.entries(properties).flatMap(([name, raw]): [string, (number: number) => unknown][] => {
    const schema = resolve(spec, raw);
    if (isIntegerSchema(schema)) return [[name, (number) => number]];
    if (schema?.type === "array" && isIntegerSchema(resolve(spec, schema.items))) return [[name, (number) => [number]]];
    return [];
  });
}

function readOperations(): Operation[] {
  const operations: Operation[] = [];
  for (const generation of ["management", "openai", "native", "anthropic"] as const) {
    const spec = specs[generation];
    for (const [pathTemplate, pathItem] of Object.entries(spec.paths as Record<string, JsonObject>)) {
      for (const [method, rawOperation] of Object.entries(pathItem)) {
        if (!["get", "post", "put", "delete"].includes(method)) continue;
        const operation = rawOperation as JsonObject;
        const parameters = [
          ...((pathItem.parameters as unknown[]) ?? []),
          ...((operation.parameters as unknown[]) ?? []),
        ]
          .map((parameter) => resolve(spec, parameter))
          .filter((parameter): parameter is JsonObject => parameter !== undefined);
        const content = resolve(spec, operation.requestBody)?.content as Record<string, JsonObject> | undefined;
        const contentType = content ? Object.keys(content)[0] : undefined;
        const media = contentType ? content![contentType]! : undefined;
        const examples = media?.examples as Record<string, JsonObject> | undefined;
        const example = media?.example ?? (examples ? resolve(spec, Object.values(examples)[0])?.value : undefined);
        operations.push({
          generation,
          method: method.toUpperCase(),
          pathTemplate,
          operationId: String(operation.operationId),
          contentType,
          example,
          schema: resolve(spec, media?.schema),
          pathParameters: parameters.filter((parameter) => parameter.in === "path").map((p) => String(p.name)),
          requiredQuery: Object.fromEntries(
            parameters
              .filter((parameter) => parameter.in === "query" && parameter.required === true)
              .map((parameter) => [String(parameter.name), String(parameter.example ?? "x")]),
          ),
          integerQuery: parameters
            .filter((parameter) => parameter.in === "query" && isIntegerSchema(resolve(spec, parameter.schema)))
            .map((parameter) => String(parameter.name)),
        });
      }
    }
  }
  return operations;
}

const operations = readOperations();

function defaultPathValue(name: string): string {
  if (name === "model") return "gmx-2.5-flash";
  if (name === "task_id") return "video_123";
  return "1";
}

function buildPath(operation: Operation, pathValues: Record<string, string> = {}, query = ""): string {
  let path = operation.pathTemplate;
  for (const name of operation.pathParameters) {
    path = path.replace(`{${name}}`, pathValues[name] ?? encodeURIComponent(defaultPathValue(name)));
  }
  const required = new URLSearchParams(operation.requiredQuery).toString();
  const parts = [required, query].filter((part) => part.length > 0);
  return parts.length > 0 ? `${path}?${parts.join("&")}` : path;
}

function baseBody(operation: Operation): JsonObject {
  const example = operation.example;
  return example !== null && typeof example === "object" && !Array.isArray(example)
    ? structuredClone(example as JsonObject)
    : {};
}

function propertyNames(operation: Operation): string[] {
  const names = new Set(Object.keys(baseBody(operation)));
  for (const name of Object.keys((operation.schema?.properties as JsonObject | undefined) ?? {})) names.add(name);
  return names.size > 0 ? [...names] : ["model"];
}

function requiredNames(operation: Operation): string[] {
  const required = operation.schema?.required;
  return Array.isArray(required) && required.length > 0 ? (required as string[]) : propertyNames(operation);
}

const multipartBoundary = "----fuzzboundary";

/** The body as the operation's content type carries it: JSON, or multipart with file fields as small files. */
function encodeBody(operation: Operation, body: JsonObject): { contentType: string; bytes: Buffer } {
  if (operation.contentType !== "multipart/form-data") {
    return { contentType: "application/json", bytes: Buffer.from(JSON.stringify(body)) };
  }
  const parts = Object.entries(body).map(([name, value]) => {
    const isFile = ["file", "image", "mask", "input_reference"].includes(name);
    const text = typeof value === "string" ? value : JSON.stringify(value);
    return isFile
      ? `--${multipartBoundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${text.slice(0, 50)}"\r\nContent-Type: application/octet-stream\r\n\r\nRIFF0000WAVEfmt \r\n`
      : `--${multipartBoundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${text}\r\n`;
  });
  return {
    contentType: `multipart/form-data; boundary=${multipartBoundary}`,
    bytes: Buffer.from(`${parts.join("")}--${multipartBoundary}--\r\n`),
  };
}

function withBody(operation: Operation, body: JsonObject, extra: Partial<RawRequest> = {}): RawRequest {
  const encoded = encodeBody(operation, body);
  return {
    method: operation.method,
    path: buildPath(operation),
    headers: { "content-type": encoded.contentType },
    body: encoded.bytes,
    ...extra,
  };
}

/** Every string in a value with `transform` applied (NUL injection and the like). */
function mapStrings(value: unknown, transform: (text: string) => string): unknown {
  if (typeof value === "string") return transform(value);
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, transform));
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, mapStrings(inner, transform)]));
  return value;
}

const anyJsonValue = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.string({ maxLength: 40 }),
  fc.array(fc.integer(), { maxLength: 5 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
);
const oddPathValues = fc.oneof(
  fc.constantFrom(
    "..%2F..%2Fetc%2Fpasswd",
    "%00",
    "%ff%fe",
    "a".repeat(5000),
    "-1",
    "0",
    "1e30",
    "99999999999999999999",
    "%F0%9F%98%80",
    "%25",
    "null",
    "models%2Fgmx-2.5-flash",
  ),
  fc.string({ minLength: 1, maxLength: 30 }).map(encodeURIComponent),
);

type Kind = (operation: Operation) => fc.Arbitrary<RawRequest>;

/** The kinds of bad input; each maps an operation to an arbitrary of raw requests. */
const kinds: Record<string, Kind> = {
  "wrong type": (operation) =>
    fc
      .tuple(fc.constantFrom(...propertyNames(operation)), anyJsonValue)
      .map(([key, value]) => withBody(operation, { ...baseBody(operation), [key]: value })),
  "out-of-range number": (operation) =>
    fc
      .tuple(
        fc.constantFrom(...propertyNames(operation)),
        fc.constantFrom(1e308, -1e308, 2 ** 53 + 1, -1, 0, 1e20, 0.5, -0, 4294967296),
      )
      .map(([key, value]) => withBody(operation, { ...baseBody(operation), [key]: value })),
  "missing required field": (operation) =>
    fc.subarray(requiredNames(operation), { minLength: 1 }).map((missing) => {
      const body = baseBody(operation);
      for (const name of missing) delete body[name];
      return withBody(operation, body);
    }),
  "extra fields": (operation) =>
    fc
      .dictionary(fc.string({ minLength: 1, maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }), { minKeys: 1, maxKeys: 5 })
      .map((extra) => withBody(operation, { ...baseBody(operation), ...extra })),
  "huge string": (operation) =>
    fc
      .tuple(fc.constantFrom(...propertyNames(operation)), fc.constantFrom(300 * 1024, 2 * 1024 * 1024))
      .map(([key, size]) => withBody(operation, { ...baseBody(operation), [key]: "x".repeat(size) })),
  "huge number": (operation) =>
    fc
      .tuple(fc.constantFrom(...propertyNames(operation)), fc.constantFrom("1e400", "9".repeat(400), "-1e400"))
      .map(([key, literal]) => {
        const text = JSON.stringify({ ...baseBody(operation), [key]: "__number__" }).replace('"__number__"', literal);
        return { ...withBody(operation, {}), headers: { "content-type": "application/json" }, body: text };
      }),
  "deep nesting": (operation) =>
    fc.tuple(fc.constantFrom(...propertyNames(operation)), fc.integer({ min: 65, max: 12_000 })).map(([key, depth]) => {
      // Built as text: JSON.stringify of such a value would overflow this test's own stack.
      const text = JSON.stringify({ ...baseBody(operation), [key]: "__deep__" }).replace(
        '"__deep__"',
        `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`,
      );
      return { ...withBody(operation, {}), headers: { "content-type": "application/json" }, body: text };
    }),
  "NUL characters": (operation) =>
    fc
      .integer({ min: 0, max: 5 })
      .map((position) =>
        withBody(
          operation,
          mapStrings(
            baseBody(operation),
            (text) => `${text.slice(0, position)}\u0000${text.slice(position)}`,
          ) as JsonObject,
        ),
      ),
  "invalid UTF-8": (operation) =>
    fc.uint8Array({ minLength: 1, maxLength: 8 }).map((garbage) => {
      const text = JSON.stringify({ ...baseBody(operation), fuzz: "__bytes__" });
      const [before, after] = text.split("__bytes__") as [string, string];
      const bytes = Buffer.concat([Buffer.from(before), Buffer.from([0xff, 0xc3, ...garbage]), Buffer.from(after)]);
      return { ...withBody(operation, {}), headers: { "content-type": "application/json" }, body: bytes };
    }),
  "byte-order mark": (operation) =>
    fc.constant(null).map(() => {
      const request = withBody(operation, baseBody(operation));
      return { ...request, body: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), request.body as Buffer]) };
    }),
  "wrong content type": (operation) =>
    fc
      .constantFrom(
        "text/plain",
        "application/xml",
        "application/x-www-form-urlencoded",
        "multipart/form-data",
        "application/json; charset=latin1",
        "application/json; charset=utf-16",
        "image/png",
        "",
      )
      .map((contentType) => ({
        ...withBody(operation, baseBody(operation)),
        headers: { "content-type": contentType },
        body: JSON.stringify(baseBody(operation)),
      })),
  "broken multipart": (operation) =>
    fc
      .oneof(
        fc.uint8Array({ minLength: 0, maxLength: 2048 }).map((bytes) => Buffer.from(bytes)),
        fc.constant(Buffer.from(`--${multipartBoundary}\r\nContent-Disposition: form-data; name="file"; filename="a`)),
        fc.constant(
          Buffer.from(
            `--${multipartBoundary}\r\nContent-Disposition: form-data; name="${"n".repeat(200_000)}"\r\n\r\nx\r\n`,
          ),
        ),
        fc.constant(Buffer.from(`--other\r\n\r\n--other--`)),
      )
      .map((bytes) => ({
        method: operation.method,
        path: buildPath(operation),
        headers: { "content-type": `multipart/form-data; boundary=${multipartBoundary}` },
        body: bytes,
      })),
  "odd path parameter": (operation) =>
    oddPathValues.map((value) => {
      const pathValues = Object.fromEntries(operation.pathParameters.map((name) => [name, value]));
      const request = withBody(operation, baseBody(operation));
      // Without path parameters the odd value becomes an extra segment (an unknown route must still be answered).
      const path =
        operation.pathParameters.length > 0 ? buildPath(operation, pathValues) : `${buildPath(operation)}/${value}`;
      return { ...request, path };
    }),
  "malformed JSON": (operation) =>
    fc
      .oneof(
        fc.constant(JSON.stringify(baseBody(operation)).slice(0, -1)),
        fc.string({ maxLength: 60 }),
        fc.constantFrom("{", "[", '{"a":}', "{'a':1}", "NaN", "undefined", '{"a":1,}', "\u0000"),
      )
      .map((text) => ({ ...withBody(operation, {}), headers: { "content-type": "application/json" }, body: text })),
  "non-object body": (operation) =>
    fc
      .oneof(
        fc.constant(null),
        fc.integer(),
        fc.string({ maxLength: 20 }),
        fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 4 }),
      )
      .map((value) => ({
        ...withBody(operation, {}),
        headers: { "content-type": "application/json" },
        body: JSON.stringify(value),
      })),
  "odd query": (operation) =>
    fc
      .oneof(
        fc.constantFrom(
          "p=99999999999999999999",
          "p=-1",
          "p[]=1",
          "p[a]=1",
          "size=1e9",
          "alt=xyz",
          "key=",
          "key=sk-notakey",
          "pageSize=0",
          "a[b][c][d][e][f][g]=1",
          "%zz=1",
        ),
        fc
          .tuple(fc.string({ minLength: 1, maxLength: 10 }), fc.string({ maxLength: 200 }))
          .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`),
      )
      .map((query) => ({ ...withBody(operation, baseBody(operation)), path: buildPath(operation, {}, query) })),
  "random JSON object": (operation) =>
    fc
      .dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 6 })
      .map((body) => withBody(operation, body)),
  "prototype keys": (operation) =>
    fc.constantFrom("__proto__", "constructor", "prototype", "hasOwnProperty", "toString").map((key) => {
      const text = JSON.stringify(baseBody(operation)).replace(
        /^\{/,
        `{"${key}":{"polluted":true,"prototype":{"x":1}},`,
      );
      return {
        ...withBody(operation, {}),
        headers: { "content-type": "application/json" },
        body: text.replace(",}", "}"),
      };
    }),
  "wrong method": (operation) =>
    fc.constantFrom("PUT", "PATCH", "DELETE", "OPTIONS", "POST", "GET").map((method) => ({
      ...withBody(operation, baseBody(operation)),
      method: method === operation.method ? "PATCH" : method,
    })),
  "empty body": (operation) =>
    fc.constantFrom("application/json", "multipart/form-data; boundary=x", "").map((contentType) => ({
      method: operation.method,
      path: buildPath(operation),
      headers: (contentType
        ? { "content-type": contentType, "content-length": "0" }
        : { "content-length": "0" }) as Record<string, string>,
      body: "",
    })),
  "strange strings": (operation) =>
    fc
      .string({ unit: "binary", maxLength: 40 })
      .map((text) => withBody(operation, mapStrings(baseBody(operation), () => text) as JsonObject)),
};

/** The envelope every error answer of a generation must have. */
function isInEnvelope(generation: ApiGeneration | undefined, answer: RawAnswer): boolean {
  const body = answer.json;
  if (body === undefined) return false;
  const error = body.error as JsonObject | undefined;
  switch (generation) {
    case "management":
      return body.success === false && typeof body.message === "string";
    case "native":
      return typeof error?.code === "number" && typeof error.message === "string" && typeof error.status === "string";
    case "anthropic":
      return body.type === "error" && typeof error?.type === "string" && typeof error.message === "string";
    default:
      return typeof error?.message === "string" && typeof error.type === "string" && typeof error.code === "string";
  }
}

// Answers of 5xx that are the upstream's or the channels' (documented), not the gateway failing on its input.
const upstreamCodes = new Set(["no_available_channel", "upstream_error", "bad_response", "upstream_timeout"]);

function isDocumentedServerAnswer(answer: RawAnswer): boolean {
  const error = answer.json?.error as JsonObject | undefined;
  if (answer.status === 501) return true;
  // Anthropic's envelope has no code: its upstream failures are the statuses it documents for them.
  if (answer.json?.type === "error" && [502, 503, 504, 529].includes(answer.status)) return true;
  if (typeof error?.code === "string" && upstreamCodes.has(error.code)) return true;
  // The native envelope carries the HTTP status as its code; its status names the upstream's answers.
  return typeof error?.status === "string" && ["UNAVAILABLE", "DEADLINE_EXCEEDED"].includes(error.status);
}

describe.each(testDatabases)("spec-driven fuzzing on $name", ({ database }) => {
  let openaiUpstream: FakeUpstream;
  let nativeUpstream: FakeNativeUpstream;
  let claudeUpstream: FakeUpstream;
  let gateway: TestGateway;
  let apiKey: string;

  beforeAll(async () => {
    openaiUpstream = await startFakeOpenaiServer({ apiKey: "fuzz-openai-secret" });
    nativeUpstream = await startFakeNativeServer({ apiKey: "fuzz-native-secret" });
    claudeUpstream = await startFakeAnthropicServer({ apiKey: "fuzz-claude-secret" });
    const openaiModels = ["gpt-4o-mini", "qwen-plus", "text-embedding-3-small", "speech-1", "transcribe-1", "img-c-2"];
    const nativeModels = ["gmx-2.5-flash", "gmx-3.5-flash", "gmx-2.5-flash-image", "gmx-3.8-flash-tts"];
    gateway = await startTestGateway({
      database,
      configFile: {
        channels: [
          {
            name: "fuzz-openai",
            type: "openai",
            base_url: openaiUpstream.url,
            key: "fuzz-openai-secret",
            models: openaiModels,
          },
          {
            name: "fuzz-native",
            type: "native",
            base_url: nativeUpstream.url,
            key: "fuzz-native-secret",
            models: nativeModels,
          },
          {
            name: "fuzz-claude",
            type: "anthropic",
            base_url: claudeUpstream.url,
            key: "fuzz-claude-secret",
            models: ["claude-sonnet-4-5"],
          },
        ],
        pricing: Object.fromEntries(
          [...openaiModels, ...nativeModels, "claude-sonnet-4-5"].map((model) => [model, { input: 1, output: 2 }]),
        ),
      },
      // Response validation would turn a wrong success body into a 500 of its own; the fuzzer looks at errors.
      environment: { VALIDATE_RESPONSES: "false", LOG_LEVEL: "info" },
    });
    // The API key belongs to another user than root, whose tokens the management calls below may delete.
    const user = await createSignedInUser(gateway);
    const token = await createTokenForTest(user.client, { name: "fuzz", unlimited_quota: true });
    apiKey = await revealApiKey(user.client, token.id);
  });

  afterAll(async () => {
    await gateway?.close();
    await openaiUpstream?.close();
    await nativeUpstream?.close();
    await claudeUpstream?.close();
  });

  it("answers every bad input of every operation below 500, in its generation's envelope, and keeps answering", async () => {
    expect(operations.length).toBeGreaterThanOrEqual(40);
    expect(Object.keys(kinds).length).toBeGreaterThanOrEqual(15);
    const counts = new Map<string, number>();
    const statuses = new Map<number, number>();
    const failures: string[] = [];
    let sent = 0;
    for (const operation of operations) {
      const authorization = operation.generation === "management" ? `Bearer ${gateway.adminToken}` : `Bearer ${apiKey}`;
      for (const [kind, toArbitrary] of Object.entries(kinds)) {
        await fc.assert(
          fc.asyncProperty(toArbitrary(operation), async (request) => {
            const answer = await sendRawRequest(gateway.url, {
              ...request,
              headers: { ...request.headers, authorization },
            });
            sent += 1;
            counts.set(kind, (counts.get(kind) ?? 0) + 1);
            statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
            const where = `${operation.operationId} [${kind}] ${request.method} ${request.path.slice(0, 80)}`;
            if (answer.status >= 500 && !isDocumentedServerAnswer(answer))
              failures.push(`${where}: ${answer.status} ${answer.body.slice(0, 200)}`);
            const generation = selectApiGeneration(request.path.split("?")[0]!);
            if (answer.status >= 400 && !isInEnvelope(generation, answer))
              failures.push(`${where}: ${answer.status} outside the envelope: ${answer.body.slice(0, 200)}`);
            return true;
          }),
          { numRuns: runsPerKind, seed, endOnFailure: true },
        );
      }
    }
    const models = await sendRawRequest(gateway.url, {
      method: "GET",
      path: "/v1/models",
      headers: { authorization: `Bearer ${apiKey}` },
    });
    const self = await sendRawRequest(gateway.url, {
      method: "GET",
      path: "/api/user/self",
      headers: { authorization: `Bearer ${gateway.adminToken}` },
    });
    console.log(
      `spec fuzzing on ${database.dialect} (seed ${seed}): ${sent} requests over ${operations.length} operations and ${counts.size} kinds; ` +
        `statuses ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}; ` +
        `per kind ${JSON.stringify(Object.fromEntries(counts))}; ${failures.length} unexplained`,
    );
    expect(failures).toEqual([]);
    expect(models.status).toBe(200);
    expect(self.status).toBe(200);
  }, 300_000);

  // The random kinds above reach a given field with a given number only now and then: 1e20 in `remain_quota`,
  // `priority` or a log query's `user_id` answered 500 on PostgreSQL (bigint out of range) in one seed of eight runs
  // and in none of three. So every integer field and integer query parameter of every operation gets the numbers
  // no column holds, every run.
  it("answers an integer past any column in every integer field and query parameter below 500", async () => {
    const failures: string[] = [];
    let sent = 0;
    for (const operation of operations) {
      const authorization = operation.generation === "management" ? `Bearer ${gateway.adminToken}` : `Bearer ${apiKey}`;
      const requests: RawRequest[] = [];
      for (const number of [1e20, -1e20, 2 ** 63]) {
        for (const [name, holding] of integerFields(operation))
          requests.push(withBody(operation, { ...baseBody(operation), [name]: holding(number) }));
        for (const name of operation.integerQuery) {
          const bodyless = operation.contentType === undefined;
          const request = bodyless
            ? { method: operation.method, path: buildPath(operation), headers: {} }
            : withBody(operation, baseBody(operation));
          requests.push({ ...request, path: buildPath(operation, {}, `${name}=${number}`) });
        }
      }
      for (const request of requests) {
        const answer = await sendRawRequest(gateway.url, {
          ...request,
          headers: { ...request.headers, authorization },
        });
        sent += 1;
        const where = `${operation.operationId} ${request.method} ${request.path.slice(0, 80)}`;
        if (answer.status >= 500 && !isDocumentedServerAnswer(answer))
          failures.push(`${where}: ${answer.status} ${answer.body.slice(0, 200)}`);
      }
    }
    console.log(`integers past any column on ${database.dialect}: ${sent} requests, ${failures.length} failed`);
    expect(sent).toBeGreaterThanOrEqual(100);
    expect(failures).toEqual([]);
  }, 300_000);
});
