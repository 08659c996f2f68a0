import { sendUpstreamJsonRequest } from "../../../upstream/send-upstream-json-request.js";
import {
  createUpstreamTaskGoneSnapshot,
  isUpstreamTaskGone,
  UpstreamFailure,
} from "../../../upstream/upstream-failure.js";
import type { VideoReferenceImage, VideoTaskCapability } from "../../contract/video-task-capability.js";
import type { VideoGenerationRequest } from "../../../video/video-generation-request.js";
import { readUpstreamVideoContent } from "../../../upstream/read-upstream-video-content.js";
import { buildNativeFileDownloadPath } from "./build-native-file-download-path.js";
import { downloadNativeVideoFile } from "./download-native-video-file.js";
import { convertVideoRequestToNative } from "./convert-video-request-to-native.js";
import { listNativeVideoFiles } from "./list-native-video-files.js";
import { mapNativeVideoOperation } from "./map-native-video-operation.js";
import { nativeSecondsPerSampleKey } from "./native-seconds-per-sample-key.js";
import type { NativeVideoImage, NativeVideoOperation } from "./native-video-operation-types.js";

/**
 * The native long-running video API as the gateway's task capability: `POST /v1beta/models/{model}:predictLongRunning`,
 * polls of `GET /v1beta/{operation name}`, and the finished file downloaded with the channel's key from the channel's
 * own host, following its redirect to storage without the key (downloadNativeVideoFile), and streamed to the client
 * (the provider's file URI is never shown).
 */
export const nativeVideoTasks: VideoTaskCapability = {
  async submit(submission, call) {
    const { body } = convertVideoRequestToNative({
      request: submission.body as VideoGenerationRequest,
      frames: readFrames(submission.images),
    });
    const operation = await sendUpstreamJsonRequest<NativeVideoOperation>(call.attempt, {
      method: "POST",
      path: `/v1beta/models/${encodeURIComponent(call.attempt.upstreamModel)}:predictLongRunning`,
      headers: call.upstreamHeaders(),
      body: JSON.stringify(body),
      signal: call.signal,
    });
    if (typeof operation.name !== "string" || operation.name === "")
      throw new UpstreamFailure("The upstream accepted the video but named no operation.", true, {
        status: 502,
        code: "bad_response",
      });
    return {
      upstreamTaskId: operation.name,
      snapshot: mapNativeVideoOperation(operation, body.parameters.durationSeconds),
    };
  },

  async poll(upstreamTaskId, call) {
    const operation = await readOperation(upstreamTaskId, call);
    if (operation === undefined)
      return createUpstreamTaskGoneSnapshot("The upstream no longer knows this video operation.");
    return mapNativeVideoOperation(operation, Number(call.stored?.[nativeSecondsPerSampleKey] ?? 0));
  },

  async fetchContent(upstreamTaskId, call) {
    const operation = await readOperation(upstreamTaskId, call);
    const file = operation === undefined ? undefined : listNativeVideoFiles(operation)[0];
    if (file === undefined)
      throw new UpstreamFailure("The upstream no longer has this video.", false, {
        status: 502,
        code: "video_unavailable",
      });
    const response = await downloadNativeVideoFile(call, buildNativeFileDownloadPath(file));
    return readUpstreamVideoContent(response);
  },
};

async function readOperation(
  name: string,
  call: Parameters<VideoTaskCapability["poll"]>[1],
): Promise<NativeVideoOperation | undefined> {
  try {
    return await sendUpstreamJsonRequest<NativeVideoOperation>(call.attempt, {
      method: "GET",
      // The name is `models/{model}/operations/{id}`: its slashes are path separators, each part encoded.
      path: `/v1beta/${name.split("/").map(encodeURIComponent).join("/")}`,
      headers: call.upstreamHeaders({ jsonBody: false }),
      signal: call.signal,
    });
  } catch (error) {
    if (isUpstreamTaskGone(error)) return undefined;
    throw error;
  }
}

function readFrames(images: readonly VideoReferenceImage[]): {
  image?: NativeVideoImage;
  lastFrame?: NativeVideoImage;
} {
  const inline = (role: VideoReferenceImage["role"]) => {
    const found = images.find((image) => image.role === role);
    return found === undefined
      ? undefined
      : { bytesBase64Encoded: found.data.toString("base64"), mimeType: found.mimeType };
  };
  const image = inline("first_frame");
  const lastFrame = inline("last_frame");
  return { ...(image ? { image } : {}), ...(lastFrame ? { lastFrame } : {}) };
}
