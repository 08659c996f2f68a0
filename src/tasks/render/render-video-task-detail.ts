import type { components } from "../../../generated/types/openai.js";
import type { CallbackDeliveryRecord } from "../../store/callback-deliveries/callback-delivery-record.js";
import type { TaskRecord } from "../../store/tasks/task-record.js";
import type { VideoTaskSnapshot } from "../../providers/contract/video-task-capability.js";
import { describeTaskResultUrl } from "./describe-task-result-url.js";

type VideoTaskQueryResponse = components["schemas"]["VideoTaskQueryResponse"];
type VideoTaskOutput = components["schemas"]["VideoTaskOutput"];

/**
 * The wrapped query form `{code: success, message, data}` with every field of the seed's query response; queries of
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
