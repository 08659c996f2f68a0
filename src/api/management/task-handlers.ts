import type { components, operations } from "../../../generated/types/management.js";
import { assertAdministrator } from "../../channels/assert-administrator.js";
import type { GatewayContext } from "../../gateway-context.js";
import type { OperationHandler } from "../../http/operation-handler.js";
import type { QueryParameters } from "../../http/operation-types.js";
import { readPathParameter } from "../../http/read-path-parameter.js";
import { countTasksInFlight } from "../../store/tasks/count-tasks-in-flight.js";
import { listTasksForUser, type UserTaskFilter } from "../../store/tasks/list-tasks-for-user.js";
import type { TaskRecord } from "../../store/tasks/task-record.js";
import { describeTaskDownloadPath, describeTaskGatewayResultPath } from "../../tasks/render/render-video-task.js";
import { sendVideoContent } from "../../tasks/render/send-video-content.js";
import type { VideoTaskService } from "../../tasks/video-task-service.js";
import { toPageWindow } from "../../tokens/to-page-window.js";
import { getAuthenticatedUser } from "../../users/authenticated-request.js";
import { readPageQuery } from "./read-page-query.js";
import { sendSuccess } from "./send-success.js";

type SelfTaskQuery = QueryParameters<operations["listSelfTasks"]>;

/**
 * `/api/task/self` is always scoped to the signed-in user: another user's tasks never match (their ids are 404).
 * The download goes through the same service read as `/v1/videos/{id}/content` and, like it, bills nothing.
 * `/api/task/stat` counts every user's tasks in flight, for administrators.
 */
export function createTaskHandlers(
  context: GatewayContext,
  videoTasks: VideoTaskService,
): Record<"listSelfTasks" | "downloadSelfTaskContent" | "getTaskStatistics", OperationHandler> {
  const { db } = context.database;
  return {
    async listSelfTasks(request, response) {
      const user = getAuthenticatedUser(response);
      const { page, size } = readPageQuery(request);
      const query = request.query as SelfTaskQuery;
      const filter: UserTaskFilter = { userId: user.id };
      if (query.status !== undefined) filter.status = query.status;
      if (typeof query.model === "string") filter.model = query.model;
      const { tasks, total } = await listTasksForUser(db, filter, toPageWindow(page, size));
      sendSuccess(response, { items: tasks.map(toUserTaskView), total, page, page_size: size });
    },

    async downloadSelfTaskContent(request, response) {
      const user = getAuthenticatedUser(response);
      const task = await videoTasks.findForUser(readPathParameter(request, "task_id"), user.id, { refresh: true });
      await sendVideoContent(response, await videoTasks.openContent(task));
    },

    async getTaskStatistics(_request, response) {
      assertAdministrator(getAuthenticatedUser(response));
      const inFlight = await countTasksInFlight(db);
      sendSuccess(response, {
        queued: inFlight.queued,
        in_progress: inFlight.inProgress,
        oldest_created_at: inFlight.oldestCreatedTime,
      });
    },
  };
}

function toUserTaskView(task: TaskRecord): components["schemas"]["UserTask"] {
  return {
    task_id: task.id,
    model: task.model,
    status: task.status,
    progress: task.progress,
    created_at: task.createdTime,
    completed_at: task.completedTime,
    seconds: task.billedSeconds,
    // While the task runs the reservation is what it holds; the terminal transition sets the final cost.
    quota: task.quota ?? task.reservedQuota,
    ...(task.status === "failed" && task.errorMessage !== null ? { error: task.errorMessage } : {}),
    result_url: describeTaskGatewayResultPath(task),
    download_url: describeTaskDownloadPath(task),
  };
}
