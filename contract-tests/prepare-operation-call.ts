import crypto from "node:crypto";
import type { FaultPlan } from "../mocks/upstreams/shared/fault-plan.js";
import { callGateway } from "./call-gateway.js";
import type { ContractContext } from "./contract-context.js";
import { createSampleFile } from "./create-sample-file.js";
import type { SpecOperation } from "./read-spec-operations.js";

/** Which answer a call is built to provoke: the documented success, or one documented error status. */
export type CallVariant = "200" | "400" | "401" | "402" | "403" | "404" | "413" | "415" | "502" | "503" | "504";
export const callVariants: CallVariant[] = [
  "200",
  "400",
  "401",
  "402",
  "403",
  "404",
  "413",
  "415",
  "502",
  "503",
  "504",
];

export interface PreparedCall {
  method: string;
  /** Path and query string. */
  path: string;
  headers: Record<string, string>;
  body: string | FormData | undefined;
  /** What the fake upstreams must do wrong while this call runs (set before, reset after). */
  upstreamFault?: FaultPlan;
}

export type PreparedOrSkipped = { call: PreparedCall } | { skip: string };

/** Model name no channel serves: the gateway has nowhere to send the call. */
export const unservedModel = "contract-unserved-model";

type JsonObject = Record<string, unknown>;
const missingNumericId = 99_999_999;

function credentialHeaders(
  operation: SpecOperation,
  context: ContractContext,
  apiKey = context.seeded.apiKey,
): Record<string, string> {
  if (!operation.requiresAuthentication) return {};
  return { authorization: `Bearer ${operation.generation === "management" ? context.seeded.adminToken : apiKey}` };
}

function bodyModel(operation: SpecOperation): string | undefined {
  const body = operation.exampleJsonBody as JsonObject | undefined;
  if (typeof body?.model === "string") return body.model;
  return operation.parameters.find((parameter) => parameter.in === "path" && parameter.name === "model")?.example as
    | string
    | undefined;
}

/** The values the JSON body's `model` is limited to, when its schema is an enum. */
function modelEnum(operation: SpecOperation): string[] | undefined {
  const resolve = (schema: unknown): JsonObject | undefined => {
    let current = schema as JsonObject | undefined;
    for (let depth = 0; depth < 10 && typeof current?.$ref === "string"; depth += 1) {
      current = (current.$ref as string)
        .slice(2)
        .split("/")
        .reduce<unknown>((node, segment) => (node as JsonObject | undefined)?.[segment], operation.document) as
        | JsonObject
        | undefined;
    }
    return current;
  };
  const modelSchema = resolve((resolve(operation.jsonBodySchema)?.properties as JsonObject | undefined)?.model);
  return Array.isArray(modelSchema?.enum) ? (modelSchema.enum as string[]) : undefined;
}

/**
 * A model the operation accepts that no channel serves (404), or that only a disabled channel serves (503): the
 * example's model renamed, so it stays in its family (image and video families go by prefix), or for a body whose
 * `model` is an enum, a listed name no enabled channel serves (the harness gives it to the disabled channels).
 */
export function modelNotAvailableFor(
  operation: SpecOperation,
  servedModels: ReadonlySet<string>,
  purpose: "unserved" | "disabled",
): string | undefined {
  const allowed = modelEnum(operation);
  if (allowed) return purpose === "disabled" ? allowed.find((name) => !servedModels.has(name)) : undefined;
  const model = bodyModel(operation);
  return model === undefined ? undefined : `${model.replace(/^models\//, "")}-${purpose}`;
}

function isImageOperation(operation: SpecOperation): boolean {
  return operation.pathTemplate.startsWith("/v1/images/");
}

/** The console's download of a finished video: a management path, but the task comes from /v1/videos. */
const consoleVideoDownload = "downloadSelfTaskContent";

function isVideoTaskOperation(operation: SpecOperation): boolean {
  return operation.pathTemplate.includes("/video") || operation.operationId === consoleVideoDownload;
}

/** A task to read back, submitted with the submission operation's own example, for the video read operations. */
async function submitVideoTask(
  operation: SpecOperation,
  context: ContractContext,
  allOperations: SpecOperation[],
): Promise<string | undefined> {
  const submitId =
    operation.pathTemplate.startsWith("/v1/videos") || operation.operationId === consoleVideoDownload
      ? "createVideo"
      : "submitVideoGeneration";
  const submit = allOperations.find((candidate) => candidate.operationId === submitId);
  if (!submit?.exampleJsonBody) return undefined;
  const answer = await callGateway(context.gatewayUrl, {
    method: "POST",
    path: submit.pathTemplate,
    bearer: context.seeded.apiKey,
    body: submit.exampleJsonBody,
  });
  const body = answer.json as { id?: string; task_id?: string } | undefined;
  const taskId = answer.status === 200 ? (body?.id ?? body?.task_id) : undefined;
  // Download, content and remix need a finished video: wait for it (the contract gateway polls every 50 ms).
  if (taskId !== undefined && videoOperationsNeedingCompletion.has(operation.operationId))
    await waitForCompletedTask(context, taskId);
  return taskId;
}

const videoOperationsNeedingCompletion = new Set([
  "downloadVideoGeneration",
  "getVideoContent",
  "remixVideo",
  consoleVideoDownload,
]);

async function waitForCompletedTask(context: ContractContext, taskId: string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const answer = await callGateway(context.gatewayUrl, {
      method: "GET",
      path: `/v1/video/generations/${taskId}?format=plain`,
      bearer: context.seeded.apiKey,
    });
    const status = (answer.json as { status?: string } | undefined)?.status;
    if (status === "succeeded" || status === "failed") return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A fresh one-time code (the example's was never created), made by root; the creation is also an audit row. */
async function createRedemptionCode(context: ContractContext): Promise<string | undefined> {
  const answer = await callGateway(context.gatewayUrl, {
    method: "POST",
    path: "/api/redemption/",
    bearer: context.seeded.adminToken,
    body: { name: "contract", quota: 1 },
  });
  return (answer.json as { data?: { codes?: string[] } } | undefined)?.data?.codes?.[0];
}

/** A fresh ordinary user for the operations that would otherwise delete or sign out a seeded one. */
async function createDisposableUser(context: ContractContext): Promise<number | undefined> {
  const answer = await callGateway(context.gatewayUrl, {
    method: "POST",
    path: "/api/user/",
    bearer: context.seeded.adminToken,
    body: { username: `ct${crypto.randomBytes(5).toString("hex")}`, password: "contract password" },
  });
  return (answer.json as { data?: { id?: number } } | undefined)?.data?.id;
}

const operationsOnDisposableUsers = new Set(["deleteUser", "resetUserPassword"]);

async function createDisposableChannel(
  context: ContractContext,
  allOperations: SpecOperation[],
): Promise<number | undefined> {
  const create = allOperations.find((candidate) => candidate.operationId === "createChannel");
  const answer = await callGateway(context.gatewayUrl, {
    method: "POST",
    path: "/api/channel/",
    bearer: context.seeded.adminToken,
    body: {
      ...(create?.exampleJsonBody as JsonObject),
      name: `ct-${crypto.randomBytes(4).toString("hex")}`,
      models: ["contract-unused-model"],
    },
  });
  return (answer.json as { data?: { id?: number } } | undefined)?.data?.id;
}

/** The example body, with ids and names swapped for seeded ones so a success is possible and nothing seeded is destroyed. */
async function prepareSuccessBody(
  operation: SpecOperation,
  context: ContractContext,
  allOperations: SpecOperation[],
): Promise<unknown> {
  const example = structuredClone(operation.exampleJsonBody) as JsonObject | undefined;
  if (!example || typeof example !== "object") return example;
  const { seeded } = context;
  switch (operation.operationId) {
    case "updateToken":
      return { ...example, id: seeded.tokenId };
    case "batchDeleteTokens":
      return { ids: [await seeded.createDisposableToken(), await seeded.createDisposableToken()] };
    case "revealTokenKeys":
      return { ids: [seeded.tokenId] };
    case "loginUser":
      return { username: seeded.user.username, password: seeded.user.password };
    case "createUser":
      return { ...example, username: `ct${crypto.randomBytes(5).toString("hex")}` };
    case "createChannel":
      // Never let an example channel with an unreachable base_url join the pool that serves the seeded models.
      return { ...example, name: `ct-${crypto.randomBytes(4).toString("hex")}`, models: ["contract-unused-model"] };
    case "updateChannel":
      return { ...example, id: (await createDisposableChannel(context, allOperations)) ?? example.id };
    case "testChannel":
      return seeded.channel ? { ...example, model: seeded.channel.model } : example;
    case "redeemCode":
      return { code: (await createRedemptionCode(context)) ?? example.code };
    default:
      // The SSE answer is checked elsewhere; here the JSON one.
      return example.stream === true ? { ...example, stream: false } : example;
  }
}

async function pathParameterValue(
  operation: SpecOperation,
  name: string,
  example: unknown,
  context: ContractContext,
  allOperations: SpecOperation[],
): Promise<unknown> {
  const { seeded } = context;
  if (operation.pathTemplate.startsWith("/api/token/") && name === "id") {
    return operation.operationId === "deleteToken" ? seeded.createDisposableToken() : seeded.tokenId;
  }
  if (operation.pathTemplate.startsWith("/api/channel/") && name === "id") {
    if (operation.operationId === "deleteChannel")
      return (await createDisposableChannel(context, allOperations)) ?? example;
    return seeded.channel?.id ?? example;
  }
  if (operation.operationId === "getLog" && name === "id") {
    // The newest usage row; when Dredd reaches this operation before any model call was made, one chat call first.
    const newestLogId = async () => {
      const answer = await callGateway(context.gatewayUrl, {
        method: "GET",
        path: "/api/log/?size=1",
        bearer: seeded.adminToken,
      });
      return (answer.json as { data?: { items?: Array<{ id: number }> } } | undefined)?.data?.items?.[0]?.id;
    };
    const existing = await newestLogId();
    if (existing !== undefined || seeded.channel === undefined) return existing ?? example;
    await callGateway(context.gatewayUrl, {
      method: "POST",
      path: "/v1/chat/completions",
      bearer: seeded.apiKey,
      body: { model: seeded.channel.model, messages: [{ role: "user", content: "hello" }] },
    });
    return (await newestLogId()) ?? example;
  }
  if (operationsOnDisposableUsers.has(operation.operationId) && name === "id")
    return (await createDisposableUser(context)) ?? example;
  if (isVideoTaskOperation(operation) && (name === "task_id" || name === "id"))
    return (await submitVideoTask(operation, context, allOperations)) ?? example;
  return example;
}

function appendQuery(query: URLSearchParams, name: string, value: unknown): void {
  if (Array.isArray(value)) for (const item of value) query.append(name, String(item));
  else if (value !== undefined && value !== null)
    query.append(name, typeof value === "object" ? JSON.stringify(value) : String(value));
}

interface CallShape {
  pathValues: Record<string, unknown>;
  queryValues: Record<string, unknown>;
  headers: Record<string, string>;
  body: unknown;
  contentType: string | undefined;
}

function render(operation: SpecOperation, shape: CallShape): PreparedCall {
  let path = operation.pathTemplate;
  for (const [name, value] of Object.entries(shape.pathValues))
    path = path.replace(`{${name}}`, encodeURIComponent(String(value)));
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(shape.queryValues)) appendQuery(query, name, value);
  const queryString = query.toString();
  const accept =
    operation.successContentTypes.find((type) => type !== "text/event-stream") ??
    operation.successContentTypes[0] ??
    "application/json";
  const headers: Record<string, string> = { accept, ...shape.headers };
  let body: string | FormData | undefined;
  if (shape.body instanceof FormData) body = shape.body;
  else if (shape.body !== undefined) {
    body = typeof shape.body === "string" ? shape.body : JSON.stringify(shape.body);
    headers["content-type"] = shape.contentType ?? "application/json";
  }
  return { method: operation.method, path: queryString ? `${path}?${queryString}` : path, headers, body };
}

function toForm(fields: Record<string, unknown>, files: SpecOperation["multipartFileFields"]): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields))
    form.append(name, typeof value === "string" ? value : JSON.stringify(value));
  for (const field of files) {
    const file = createSampleFile(field.contentType);
    form.append(field.name, new Blob([file.bytes], { type: file.type }), file.name);
  }
  return form;
}

/** Multipart-only operations (uploads): the success with generated files, no credentials, and a form missing its files. */
function prepareMultipartCall(
  operation: SpecOperation,
  variant: CallVariant,
  context: ContractContext,
): PreparedOrSkipped {
  if (!operation.exampleMultipartFields) return { skip: "the spec has no multipart request example" };
  const shape: CallShape = {
    pathValues: {},
    queryValues: {},
    headers: credentialHeaders(operation, context),
    body: undefined,
    contentType: undefined,
  };
  switch (variant) {
    case "200":
      shape.body = toForm(operation.exampleMultipartFields, operation.multipartFileFields);
      break;
    case "401":
      shape.headers = {};
      shape.body = toForm(operation.exampleMultipartFields, operation.multipartFileFields);
      break;
    case "400":
      if (operation.multipartFileFields.length === 0) return { skip: "no file field to leave out" };
      shape.body = toForm(operation.exampleMultipartFields, []);
      break;
    default:
      return { skip: `${variant} is not provoked for multipart uploads` };
  }
  return { call: render(operation, shape) };
}

/**
 * A request that should make the gateway answer `variant` for `operation`, built from the operation's own examples
 * and the seeded data; or why that answer cannot be provoked from outside.
 */
export async function prepareOperationCall(
  operation: SpecOperation,
  variant: CallVariant,
  context: ContractContext,
  allOperations: SpecOperation[],
): Promise<PreparedOrSkipped> {
  if (!callVariants.includes(variant)) return { skip: `${variant} cannot be provoked from outside` };
  if (!operation.responseStatuses.includes(variant)) return { skip: `${variant} is not documented` };
  const hasJsonBody = operation.requestContentTypes.includes("application/json");
  if (operation.requestContentTypes.length > 0 && !hasJsonBody)
    return prepareMultipartCall(operation, variant, context);
  if (hasJsonBody && operation.exampleJsonBody === undefined) return { skip: "the spec has no JSON request example" };

  const pathParameters = operation.parameters.filter((parameter) => parameter.in === "path");
  const queryParameters = operation.parameters.filter((parameter) => parameter.in === "query");
  const shape: CallShape = {
    pathValues: {},
    queryValues: {},
    headers: credentialHeaders(operation, context),
    body: undefined,
    contentType: undefined,
  };
  // Every variant starts from the request that succeeds, so each error comes from the one thing changed.
  for (const parameter of pathParameters) {
    shape.pathValues[parameter.name] = await pathParameterValue(
      operation,
      parameter.name,
      parameter.example,
      context,
      allOperations,
    );
  }
  // Optional query examples are left out: they are written one by one and need not fit the body example.
  for (const parameter of queryParameters) {
    if (parameter.example === undefined || !parameter.required) continue;
    shape.queryValues[parameter.name] = parameter.name === "token_id" ? context.seeded.tokenId : parameter.example;
  }
  if (isVideoTaskOperation(operation) && "id" in shape.queryValues) {
    shape.queryValues.id = (await submitVideoTask(operation, context, allOperations)) ?? shape.queryValues.id;
  }
  if (hasJsonBody) {
    shape.body = await prepareSuccessBody(operation, context, allOperations);
  }

  switch (variant) {
    case "200":
      // The newest row of any kind need not look like the example: ask for the kind the example shows.
      if (operation.operationId === "listAuditLog") shape.queryValues.action = "redemption.create";
      break;
    case "401":
      if (operation.operationId === "loginUser")
        shape.body = { username: context.seeded.user.username, password: `${context.seeded.user.password}-wrong` };
      else if (!operation.requiresAuthentication) return { skip: "the operation needs no credentials" };
      else shape.headers = {};
      break;
    case "400": {
      if (hasJsonBody) {
        // An array where the schema wants an object: rejected by request validation whatever the fields are.
        if (
          operation.jsonBodySchema &&
          (operation.jsonBodySchema.type === "object" || operation.jsonBodySchema.properties)
        )
          shape.body = [];
        else return { skip: "no body shape is invalid for this schema" };
        break;
      }
      const integerPath = pathParameters.find((parameter) => parameter.schema.type === "integer");
      const integerQuery = queryParameters.find((parameter) => parameter.schema.type === "integer");
      if (integerPath) shape.pathValues[integerPath.name] = "not-a-number";
      else if (integerQuery) shape.queryValues[integerQuery.name] = "not-a-number";
      else return { skip: "no parameter or body can be made invalid" };
      break;
    }
    case "403": {
      if (operation.generation === "management") {
        if (!operation.requiresAuthentication) return { skip: "the operation needs no credentials" };
        shape.headers = { authorization: `Bearer ${context.seeded.user.accessToken}` };
        // A user's own statistics are allowed; every user's are for administrators.
        if (operation.operationId === "getLogStatistics") shape.queryValues.scope = "all";
        break;
      }
      if (!bodyModel(operation)) return { skip: "no model to forbid" };
      shape.headers = credentialHeaders(operation, context, context.seeded.restrictedApiKey);
      break;
    }
    case "402":
      if (!bodyModel(operation)) return { skip: "the operation is not billed per request" };
      shape.headers = credentialHeaders(operation, context, context.seeded.brokeApiKey);
      break;
    case "404": {
      const idParameter = pathParameters.find((parameter) => parameter.name === "id" || parameter.name === "task_id");
      if (idParameter)
        shape.pathValues[idParameter.name] =
          idParameter.schema.type === "integer" ? missingNumericId : "contract_missing_task";
      else if (hasJsonBody && typeof (operation.exampleJsonBody as JsonObject).id === "number")
        (shape.body as JsonObject).id = missingNumericId;
      else if (isVideoTaskOperation(operation) && "id" in shape.queryValues)
        shape.queryValues.id = "contract_missing_task";
      // A model no channel serves is 404 (NOT_FOUND on the native API, `model_not_found` on /v1).
      else if (operation.generation === "native" && "model" in shape.pathValues) shape.pathValues.model = unservedModel;
      else if (operation.generation === "native" && "model" in shape.queryValues)
        shape.queryValues.model = unservedModel;
      else if (operation.generation === "openai" && hasJsonBody && bodyModel(operation)) {
        const model = modelNotAvailableFor(operation, context.servedModels, "unserved");
        if (model === undefined) return { skip: "every model the schema allows is served" };
        shape.body = { ...(shape.body as JsonObject), model };
      }
      // So does Anthropic's Messages API (`not_found_error`).
      else if (operation.generation === "anthropic" && hasJsonBody)
        shape.body = { ...(shape.body as JsonObject), model: unservedModel };
      else return { skip: "no id to point at nothing" };
      break;
    }
    case "413": {
      if (!hasJsonBody) return { skip: "no request body" };
      const limit =
        operation.generation === "management" ? context.managementBodyLimitBytes : context.jsonBodyLimitBytes;
      shape.body = { ...(shape.body as JsonObject), contract_padding: "x".repeat(limit + 1024) };
      break;
    }
    case "415":
      if (!hasJsonBody) return { skip: "no request body" };
      shape.body = "plain text where JSON is expected";
      shape.contentType = "text/plain";
      break;
    case "502":
    case "504":
      if (!bodyModel(operation)) return { skip: "the operation does not call an upstream" };
      return {
        call: {
          ...render(operation, shape),
          // undici checks timeouts over a second long on a coarse clock (ticks of ~0.5 s, later on a busy machine), so the
          // header timeout may fire up to a second or more after it is due: the fake waits well past that.
          // The image endpoints' 502 is `empty_response` (an upstream 5xx is their 503 `bad_response`): an upstream
          // 200 without an image provokes it.
          upstreamFault:
            variant === "504"
              ? { latencyMs: context.upstreamHeaderTimeoutMs + 3_000 }
              : isImageOperation(operation)
                ? { status: 200, body: {} }
                : { status: 500 },
        },
      };
    case "503": {
      if (!bodyModel(operation)) return { skip: "the operation does not call an upstream" };
      // A served model whose only channels are disabled: no channel can take it now.
      const model = modelNotAvailableFor(operation, context.servedModels, "disabled");
      if (model === undefined) return { skip: "every model the schema allows is served" };
      if ("model" in shape.pathValues) shape.pathValues.model = model;
      else if ("model" in shape.queryValues) shape.queryValues.model = model;
      else shape.body = { ...(shape.body as JsonObject), model };
      break;
    }
  }
  return { call: render(operation, shape) };
}
