import type { components } from "../../../generated/types/openai.js";
import type { VideoTaskSnapshot } from "../../providers/contract/video-task-capability.js";
import type { CallbackDeliveryRecord } from "../../store/callback-deliveries/callback-delivery-record.js";
import type { TaskRecord } from "../../store/tasks/task-record.js";
import { findVideoModelFamily } from "../find-video-model-family.js";

// A stored video task as each answer shows it: where its result is (never an upstream address the client should
// not see), the submission answer, the OpenAI video object, the plain and the wrapped query forms.

type VideoTask = components["schemas"]["VideoTask"];
type OpenaiVideo = components["schemas"]["OpenaiVideo"];
type VideoTaskPlain = components["schemas"]["VideoTaskPlain"];
type VideoTaskQueryResponse = components["schemas"]["VideoTaskQueryResponse"];
type VideoTaskOutput = components["schemas"]["VideoTaskOutput"];

/**
 * Where a completed task's video is: the upstream's temporary URL when the protocol gives one; for families whose
 * bytes the gateway streams itself (vid-a-2), the gateway's own content path, so no upstream address or key leaks.
 */
export function describeTaskResultUrl(task: TaskRecord): string | undefined {
  if (task.status !== "completed") return undefined;
  if (task.resultUrl) return task.resultUrl;
  return findVideoModelFamily(task.model)?.servesContent ? `/v1/videos/${task.id}/content` : undefined;
}

/**
 * The gateway's own path to a completed task's result, for the console: the content path where the gateway
 * streams the family's video, otherwise the task query path (whose answer carries the temporary URL). Never the
 * upstream URL itself, which may carry a signature or key.
 */
export function describeTaskGatewayResultPath(task: TaskRecord): string | null {
  if (task.status !== "completed") return null;
  return findVideoModelFamily(task.model)?.servesContent
    ? `/v1/videos/${task.id}/content`
    : `/v1/video/generations/${task.id}`;
}

/**
 * The console's download path of a completed task whose video the gateway streams (`/api/task/self/{id}/content`,
 * served with the user access token); null for other tasks.
 */
export function describeTaskDownloadPath(task: TaskRecord): string | null {
  if (task.status !== "completed" || !findVideoModelFamily(task.model)?.servesContent) return null;
  return `/api/task/self/${task.id}/content`;
}

/** The answer of POST /v1/video/generations (OpenAI-video style); task_id in metadata is ours too. */
export function renderVideoTaskSubmission(task: TaskRecord): VideoTask {
  return {
    id: task.id,
    object: "video",
    model: task.model,
    status: task.status,
    progress: task.progress,
    created_at: task.createdTime,
    metadata: {
      output: { task_id: task.id, task_status: task.upstreamStatus ?? "PENDING" },
      ...(task.reservationId ? { request_id: task.reservationId } : {}),
    },
  };
}

/** A task as the OpenAI video object (POST /v1/videos, GET /v1/videos/{id}, remix). */
export function renderOpenaiVideo(task: TaskRecord): OpenaiVideo {
  const request = (task.requestBody ?? {}) as {
    prompt?: string;
    seconds?: string;
    size?: string;
    remix_from_video_id?: string;
  };
  const url = describeTaskResultUrl(task);
  return {
    id: task.id,
    object: "video",
    model: task.model,
    status: task.status,
    progress: task.progress,
    created_at: task.createdTime,
    completed_at: task.completedTime,
    ...(request.prompt === undefined ? {} : { prompt: request.prompt }),
    ...(task.billedSeconds !== null
      ? { seconds: String(task.billedSeconds) }
      : request.seconds === undefined
        ? {}
        : { seconds: request.seconds }),
    ...(request.size === undefined ? {} : { size: request.size }),
    ...(url === undefined ? {} : { url }),
    remixed_from_video_id: request.remix_from_video_id ?? null,
    error:
      task.status === "failed"
        ? { code: task.errorCode ?? "video_generation_failed", message: task.errorMessage ?? "" }
        : null,
  };
}

/**
 * The plain query form (`format=plain`): `succeeded` for completed, and an integer error code: the upstream's own
 * when it is a number, 504 for a timeout, 404 for a task the upstream lost, 400 for a refused prompt or image,
 * else 500.
 */
export function renderVideoTaskPlain(task: TaskRecord): VideoTaskPlain {
  const url = describeTaskResultUrl(task);
  return {
    task_id: task.id,
    status: task.status === "completed" ? "succeeded" : task.status,
    format: "mp4",
    ...(url === undefined ? {} : { url }),
    ...(task.status === "failed"
      ? { error: { code: numericErrorCode(task.errorCode), message: task.errorMessage ?? "" } }
      : {}),
  };
}

function numericErrorCode(code: string | null): number {
  if (code !== null && /^\d{3}$/.test(code)) return Number(code);
  if (code === "task_timeout") return 504;
  if (code === "upstream_task_not_found") return 404;
  if (code !== null && /moderation|inappropriate|blocked|policy|inspection|safety/i.test(code)) return 400;
  return 500;
}

/**
 * The wrapped query form `{code: success, message, data}` with every field of the query response; queries of
 * a task with a callback also show its delivery attempts (the delivered body itself does not).
 */
export function renderVideoTaskDetail(
  task: TaskRecord,
  deliveries?: readonly CallbackDeliveryRecord[],
): VideoTaskQueryResponse {
  const snapshot = (task.responseBody ?? {}) as Partial<VideoTaskSnapshot>;
  const request = (task.requestBody ?? {}) as { prompt?: string; seconds?: string; callback_url?: string };
  const url = describeTaskResultUrl(task);
  const output: VideoTaskOutput = { task_id: task.id, task_status: task.upstreamStatus ?? "PENDING" };
  if (request.prompt !== undefined) output.orig_prompt = request.prompt;
  if (url !== undefined) output.video_url = url;
  if (snapshot.output?.submitTime !== undefined) output.submit_time = snapshot.output.submitTime;
  if (snapshot.output?.scheduledTime !== undefined) output.scheduled_time = snapshot.output.scheduledTime;
  if (snapshot.output?.endTime !== undefined) output.end_time = snapshot.output.endTime;
  if (snapshot.output?.inputVideoDuration !== undefined)
    output.input_video_duration = snapshot.output.inputVideoDuration;
  if (snapshot.output?.outputVideoDuration !== undefined)
    output.output_video_duration = snapshot.output.outputVideoDuration;
  const seconds = task.billedSeconds ?? (request.seconds === undefined ? undefined : Number(request.seconds));
  return {
    code: "success",
    message: "",
    data: {
      id: task.id,
      object: "video",
      model: task.model,
      status: task.status,
      progress: task.progress,
      ...(seconds === undefined ? {} : { seconds: String(seconds) }),
      url: url ?? null,
      video_url: url ?? null,
      created_at: task.createdTime,
      completed_at: task.completedTime,
      ...(task.status === "failed"
        ? { error: { code: task.errorCode ?? "video_generation_failed", message: task.errorMessage ?? "" } }
        : {}),
      metadata: {
        output,
        ...(task.status === "completed"
          ? {
              usage: {
                ...(snapshot.usage?.resolution === undefined ? {} : { SR: snapshot.usage.resolution }),
                duration: task.billedSeconds ?? 0,
                video_count: snapshot.usage?.videoCount ?? 1,
              },
            }
          : {}),
        ...(url === undefined ? {} : { url, video_url: url }),
        ...(deliveries === undefined || request.callback_url === undefined
          ? {}
          : {
              callback: {
                url: request.callback_url,
                deliveries: deliveries.map((delivery) => ({
                  attempt: delivery.attempt,
                  delivered: delivery.succeeded,
                  status_code: delivery.statusCode,
                  error: delivery.errorMessage,
                  time: delivery.createdTime,
                })),
              },
            }),
      },
    },
  };
}
