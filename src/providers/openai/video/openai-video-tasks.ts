import { sendUpstreamJsonRequest } from "../../../upstream/send-upstream-json-request.js";
import { sendUpstreamRequest } from "../../../upstream/send-upstream-request.js";
import { readUpstreamVideoContent } from "../../../upstream/read-upstream-video-content.js";
import {
  createUpstreamTaskGoneSnapshot,
  isUpstreamTaskGone,
  UpstreamFailure,
} from "../../../upstream/upstream-failure.js";
import type { VideoTaskCapability } from "../../contract/video-task-capability.js";
import { convertOpenaiVideoToSnapshot } from "./convert-openai-video-to-snapshot.js";
import { convertVideoSubmissionToOpenai } from "./convert-video-submission-to-openai.js";
import type { OpenaiVideoObject } from "./openai-video-object.js";

function readUpstreamTaskId(video: OpenaiVideoObject): string {
  if (typeof video.id === "string" && video.id !== "") return video.id;
  throw new UpstreamFailure("The upstream accepted the video but gave no id.", true, {
    status: 502,
    code: "bad_response",
  });
}

/**
 * The OpenAI Videos API (`/v1/videos`, `/v1/videos/{id}`, `/v1/videos/{id}/content`, `/v1/videos/{id}/remix`)
 * as the gateway's video task capability.
 */
export const openaiVideoTasks: VideoTaskCapability = {
  async submit(submission, call) {
    const video = await sendUpstreamJsonRequest<OpenaiVideoObject>(call.attempt, {
      method: "POST",
      path: "/v1/videos",
      headers: call.upstreamHeaders({ jsonBody: false }),
      body: convertVideoSubmissionToOpenai(submission, call.attempt.upstreamModel),
      signal: call.signal,
    });
    return { upstreamTaskId: readUpstreamTaskId(video), snapshot: convertOpenaiVideoToSnapshot(video) };
  },

  async remix(sourceUpstreamTaskId, submission, call) {
    const video = await sendUpstreamJsonRequest<OpenaiVideoObject>(call.attempt, {
      method: "POST",
      path: `/v1/videos/${encodeURIComponent(sourceUpstreamTaskId)}/remix`,
      headers: call.upstreamHeaders(),
      body: JSON.stringify({ prompt: submission.prompt }),
      signal: call.signal,
    });
    return { upstreamTaskId: readUpstreamTaskId(video), snapshot: convertOpenaiVideoToSnapshot(video) };
  },

  async poll(upstreamTaskId, call) {
    try {
      const video = await sendUpstreamJsonRequest<OpenaiVideoObject>(call.attempt, {
        method: "GET",
        path: `/v1/videos/${encodeURIComponent(upstreamTaskId)}`,
        headers: call.upstreamHeaders({ jsonBody: false }),
        signal: call.signal,
      });
      return convertOpenaiVideoToSnapshot(video);
    } catch (error) {
      if (isUpstreamTaskGone(error)) return createUpstreamTaskGoneSnapshot();
      throw error;
    }
  },

  async fetchContent(upstreamTaskId, call) {
    const response = await sendUpstreamRequest(call.attempt, {
      method: "GET",
      path: `/v1/videos/${encodeURIComponent(upstreamTaskId)}/content`,
      headers: call.upstreamHeaders({ jsonBody: false, accept: "application/binary" }),
      signal: call.signal,
    });
    return readUpstreamVideoContent(response);
  },
};
