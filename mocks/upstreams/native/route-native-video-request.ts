import type { FakeExchange } from "../shared/fake-exchange.js";
import type { FakeTaskBook } from "../shared/create-fake-task-book.js";
import { createFakeVideoBytes } from "../shared/create-fake-video-bytes.js";
import { readJsonBody } from "../shared/read-json-body.js";
import { sendBody } from "../shared/send-body.js";
import { sendJson } from "../shared/send-json.js";
import { NativeUpstreamError } from "./native-upstream-error.js";

/** What the fake keeps of one long-running video generation. */
export interface NativeVideoInput {
  model: string;
  prompt: string;
  sampleCount: number;
  durationSeconds: number;
  /** File ids of the samples, fixed at creation so every poll names the same files. */
  fileIds: string[];
}

export interface NativeVideoState {
  operations: FakeTaskBook<NativeVideoInput>;
  nextId(): number;
  /** Where file downloads redirect to (a second host), as the real API's do. */
  storage: { publish(bytes: Buffer, contentType: string): string };
}

const aspectRatios = ["16:9", "9:16"];
const resolutions = ["720p", "1080p", "4k"];
const personGenerations = ["allow_all", "allow_adult", "dont_allow"];

/**
 * The long-running video part of the native API: `POST /v1beta/models/{model}:predictLongRunning` answers an
 * operation name, `GET /v1beta/models/{model}/operations/{id}` the operation (`done` after the timeline's polls),
 * `GET /v1beta/files/{id}:download?alt=media` a 302 to the video on a storage host (behind the same key check as every
 * route; the storage URL carries its own token and needs no key). Prompt markers
 * choose the outcome: `[filter]` ends with every sample filtered (no samples, the filter's reason), `[fail]` with an
 * rpc error. Returns false for any other path, for the generation routes.
 */
export async function routeNativeVideoRequest(exchange: FakeExchange, state: NativeVideoState): Promise<boolean> {
  const method = exchange.request.method ?? "GET";
  const path = exchange.url.pathname;
  try {
    const submit = /^\/v1beta\/models\/([^/:]+):predictLongRunning$/.exec(path);
    if (method === "POST" && submit) {
      const model = decodeURIComponent(submit[1]!);
      const id = `op${String(state.nextId()).padStart(6, "0")}`;
      const input = readSubmission(model, readJsonBody(exchange), state);
      state.operations.create(id, input);
      await sendJson(exchange, 200, { name: `models/${model}/operations/${id}` });
      return true;
    }
    const operation = /^\/v1beta\/models\/([^/]+)\/operations\/([^/]+)$/.exec(path);
    if (method === "GET" && operation) {
      await sendJson(exchange, 200, describeOperation(exchange, state, decodeURIComponent(operation[2]!)));
      return true;
    }
    const download = /^\/v1beta\/files\/([\w-]+):download$/.exec(path);
    if (method === "GET" && download) {
      const fileId = download[1]!;
      if (exchange.url.searchParams.get("alt") !== "media")
        throw new NativeUpstreamError(400, "Only alt=media downloads are supported for video files.");
      const owner = state.operations.list().find((task) => task.input.fileIds.includes(fileId));
      if (owner === undefined) throw new NativeUpstreamError(404, `File ${fileId} was not found.`);
      const location = state.storage.publish(createFakeVideoBytes(`${owner.id}/${fileId}`), "video/mp4");
      await sendBody(exchange, 302, "text/html; charset=UTF-8", "", { location });
      return true;
    }
    return false;
  } catch (error) {
    if (!(error instanceof NativeUpstreamError)) throw error;
    await sendJson(exchange, error.httpStatus, error.toEnvelope());
    return true;
  }
}

function readSubmission(model: string, body: unknown, state: NativeVideoState): NativeVideoInput {
  const request = body as { instances?: unknown; parameters?: Record<string, unknown> } | undefined;
  if (request === undefined) throw new NativeUpstreamError(400, "Invalid JSON payload received.");
  const instances = Array.isArray(request.instances) ? (request.instances as Array<Record<string, unknown>>) : [];
  const instance = instances[0];
  if (instances.length !== 1 || instance === undefined)
    throw new NativeUpstreamError(400, "instances must contain exactly one instance.");
  if (typeof instance.prompt !== "string" || instance.prompt === "")
    throw new NativeUpstreamError(400, "instances[0].prompt is required.");
  for (const field of ["image", "lastFrame"]) if (instance[field] !== undefined) checkImage(instance[field], field);
  if (instance.lastFrame !== undefined && !model.startsWith("veo-3.1"))
    throw new NativeUpstreamError(400, `lastFrame is not supported by ${model}.`);
  const parameters = request.parameters ?? {};
  const durationSeconds = Number(parameters.durationSeconds ?? 8);
  if (![4, 5, 6, 7, 8].includes(durationSeconds))
    throw new NativeUpstreamError(400, "durationSeconds must be between 4 and 8.");
  check(parameters.aspectRatio, aspectRatios, "aspectRatio");
  check(parameters.resolution, resolutions, "resolution");
  check(parameters.personGeneration, personGenerations, "personGeneration");
  const sampleCount = Number(parameters.sampleCount ?? 1);
  if (!Number.isInteger(sampleCount) || sampleCount < 1 || sampleCount > 4)
    throw new NativeUpstreamError(400, "sampleCount must be between 1 and 4.");
  const fileIds = Array.from({ length: sampleCount }, () => `file${String(state.nextId()).padStart(6, "0")}`);
  return { model, prompt: instance.prompt, sampleCount, durationSeconds, fileIds };
}

function describeOperation(exchange: FakeExchange, state: NativeVideoState, id: string): object {
  const found = state.operations.poll(id);
  if (found === undefined) throw new NativeUpstreamError(404, `Operation ${id} was not found.`);
  const { task, phase } = found;
  const name = `models/${task.input.model}/operations/${task.id}`;
  if (phase !== "done")
    return {
      name,
      metadata: { "@type": "type.googleapis.com/google.ai.generativelanguage.v1beta.PredictLongRunningMetadata" },
    };
  if (task.input.prompt.includes("[fail]"))
    return { name, done: true, error: { code: 13, message: "Video generation failed due to an internal error." } };
  const type = "type.googleapis.com/google.ai.generativelanguage.v1beta.PredictLongRunningResponse";
  if (task.input.prompt.includes("[filter]"))
    return {
      name,
      done: true,
      response: {
        "@type": type,
        generateVideoResponse: {
          raiMediaFilteredCount: task.input.sampleCount,
          raiMediaFilteredReasons: [
            "The prompt could not be used to generate a video because it violates the usage guidelines.",
          ],
        },
      },
    };
  const origin = `http://${exchange.request.headers.host ?? "127.0.0.1"}`;
  return {
    name,
    done: true,
    response: {
      "@type": type,
      generateVideoResponse: {
        generatedSamples: task.input.fileIds.map((fileId) => ({
          video: { uri: `${origin}/v1beta/files/${fileId}:download?alt=media` },
        })),
      },
    },
  };
}

function check(value: unknown, allowed: string[], field: string): void {
  if (value !== undefined && (typeof value !== "string" || !allowed.includes(value)))
    throw new NativeUpstreamError(400, `${field} must be one of ${allowed.join(", ")}.`);
}

/** The SDK's `{bytesBase64Encoded, mimeType}` or the REST samples' `{inlineData: {mimeType, data}}`. */
function checkImage(value: unknown, field: string): void {
  const image = value as {
    bytesBase64Encoded?: unknown;
    mimeType?: unknown;
    inlineData?: { data?: unknown; mimeType?: unknown };
  };
  const data = image?.bytesBase64Encoded ?? image?.inlineData?.data;
  const mimeType = image?.mimeType ?? image?.inlineData?.mimeType;
  if (typeof data !== "string" || data === "" || typeof mimeType !== "string" || !mimeType.startsWith("image/"))
    throw new NativeUpstreamError(400, `instances[0].${field} must be an inline image with a mimeType.`);
}
