import { sendUpstreamJsonRequest } from "../../upstream/send-upstream-json-request.js";
import {
  createUpstreamTaskGoneSnapshot,
  isUpstreamTaskGone,
  UpstreamFailure,
} from "../../upstream/upstream-failure.js";
import type { VideoTaskCapability } from "../contract/video-task-capability.js";
import type { VideoGenerationRequest } from "../../video/video-generation-request.js";
import type { ArkTaskAnswer } from "./ark-video-task-types.js";
import { convertVideoRequestToArk } from "./convert-video-request-to-ark.js";
import { mapArkVideoTask } from "./map-ark-video-task.js";

/**
 * ARK content-generation tasks as the gateway's task capability: `POST /api/v3/contents/generations/tasks` and
 * `GET /api/v3/contents/generations/tasks/{id}`. The gateway polls; the client's callback address is never given to
 * the provider (the gateway calls the client back itself, signed).
 */
export const arkVideoTasks: VideoTaskCapability = {
  async submit(submission, call) {
    const { body } = convertVideoRequestToArk(submission.body as VideoGenerationRequest, call.attempt.upstreamModel);
    const answer = await sendUpstreamJsonRequest<{ id?: unknown }>(call.attempt, {
      method: "POST",
      path: "/api/v3/contents/generations/tasks",
      headers: call.upstreamHeaders(),
      body: JSON.stringify(body),
      signal: call.signal,
    });
    if (typeof answer.id !== "string" || answer.id === "")
      throw new UpstreamFailure("The upstream accepted the video but gave no task id.", true, {
        status: 502,
        code: "bad_response",
      });
    return { upstreamTaskId: answer.id, snapshot: { status: "queued", upstreamStatus: "PENDING" } };
  },

  async poll(upstreamTaskId, call) {
    try {
      const answer = await sendUpstreamJsonRequest<ArkTaskAnswer>(call.attempt, {
        method: "GET",
        path: `/api/v3/contents/generations/tasks/${encodeURIComponent(upstreamTaskId)}`,
        headers: call.upstreamHeaders({ jsonBody: false }),
        signal: call.signal,
      });
      return mapArkVideoTask(answer);
    } catch (error) {
      if (isUpstreamTaskGone(error)) return createUpstreamTaskGoneSnapshot();
      throw error;
    }
  },
};
