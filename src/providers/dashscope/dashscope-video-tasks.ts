import { sendUpstreamJsonRequest } from "../../upstream/send-upstream-json-request.js";
import { UpstreamFailure } from "../../upstream/upstream-failure.js";
import type { VideoTaskCapability } from "../contract/video-task-capability.js";
import type { VideoGenerationRequest } from "../../video/video-generation-request.js";
import { convertVideoRequestToDashScope } from "./convert-video-request-to-dashscope.js";
import type { DashScopeTaskAnswer } from "./dashscope-video-task-types.js";
import { mapDashScopeVideoTask } from "./map-dashscope-video-task.js";

/**
 * DashScope asynchronous video synthesis as the gateway's task capability: the submit (asynchronous only, so always
 * with `X-DashScope-Async: enable`) and `GET /api/v1/tasks/{task_id}` polls. The result is the provider's signed
 * URL (no key in it), shown as is.
 */
export const dashscopeVideoTasks: VideoTaskCapability = {
  async submit(submission, call) {
    const { body } = convertVideoRequestToDashScope(
      submission.body as VideoGenerationRequest,
      call.attempt.upstreamModel,
    );
    const answer = await sendUpstreamJsonRequest<DashScopeTaskAnswer>(call.attempt, {
      method: "POST",
      path: "/api/v1/services/aigc/video-generation/video-synthesis",
      headers: { ...call.upstreamHeaders(), "x-dashscope-async": "enable" },
      body: JSON.stringify(body),
      signal: call.signal,
    });
    const taskId = answer.output?.task_id;
    if (typeof taskId !== "string" || taskId === "")
      throw new UpstreamFailure("The upstream accepted the video but gave no task id.", true, {
        status: 502,
        code: "bad_response",
      });
    return { upstreamTaskId: taskId, snapshot: mapDashScopeVideoTask(answer) };
  },

  async poll(upstreamTaskId, call) {
    // A task the provider no longer knows answers 200 UNKNOWN, which the mapping ends as failed.
    const answer = await sendUpstreamJsonRequest<DashScopeTaskAnswer>(call.attempt, {
      method: "GET",
      path: `/api/v1/tasks/${encodeURIComponent(upstreamTaskId)}`,
      headers: call.upstreamHeaders({ jsonBody: false }),
      signal: call.signal,
    });
    return mapDashScopeVideoTask(answer);
  },
};
