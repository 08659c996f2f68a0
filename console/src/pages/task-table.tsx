import { useTranslation } from "react-i18next";
import type { UserTask } from "../api/management-types";
import { useFormat } from "../format/use-format";

const statusClass = { queued: "hint", in_progress: "hint", completed: "success", failed: "error" } as const;

interface TaskTableProps {
  tasks: UserTask[];
  /** The task whose video is being downloaded now, if any (its button is busy). */
  downloading: string | undefined;
  onDownload(task: UserTask): void;
}

/**
 * One page of the caller's video tasks, newest first. A finished video the gateway streams is downloaded with the
 * session's token; other results are named by the gateway's own path (read with an API key).
 */
export function TaskTable({ tasks, downloading, onDownload }: TaskTableProps) {
  const { t } = useTranslation();
  const format = useFormat();
  if (tasks.length === 0) return <p>{t("tasks.none")}</p>;
  return (
    <table className="responsive-table">
      <caption className="visually-hidden">{t("tasks.caption")}</caption>
      <thead>
        <tr>
          <th scope="col">{t("tasks.submitted")}</th>
          <th scope="col">{t("tasks.taskId")}</th>
          <th scope="col">{t("tasks.model")}</th>
          <th scope="col">{t("tasks.status")}</th>
          <th scope="col">{t("tasks.progress")}</th>
          <th scope="col">{t("tasks.seconds")}</th>
          <th scope="col">{t("tasks.cost")}</th>
          <th scope="col">{t("tasks.result")}</th>
        </tr>
      </thead>
      <tbody>
        {tasks.map((task) => (
          <tr key={task.task_id}>
            <td data-label={t("tasks.submitted")}>{format.time(task.created_at)}</td>
            <th scope="row" data-label={t("tasks.taskId")}>
              <code>{task.task_id}</code>
            </th>
            <td data-label={t("tasks.model")}>{task.model}</td>
            <td data-label={t("tasks.status")}>
              <span>
                <span className={statusClass[task.status]}>{format.taskStatus(task.status)}</span>
                {task.error && <span className="error">{t("tasks.errorSuffix", { error: task.error })}</span>}
                {task.completed_at !== null && (
                  <span className="hint">{t("tasks.completedAt", { time: format.time(task.completed_at) })}</span>
                )}
              </span>
            </td>
            <td data-label={t("tasks.progress")}>
              <span>
                <progress max={100} value={task.progress} aria-label={t("tasks.progressLabel", { id: task.task_id })} />{" "}
                {task.progress}%
              </span>
            </td>
            <td data-label={t("tasks.seconds")}>{task.seconds ?? "–"}</td>
            <td data-label={t("tasks.cost")}>{format.quota(task.quota)}</td>
            <td data-label={t("tasks.result")}>
              {task.download_url ? (
                <button
                  type="button"
                  aria-label={t("tasks.downloadLabel", { id: task.task_id })}
                  aria-busy={downloading === task.task_id}
                  disabled={downloading === task.task_id}
                  onClick={() => onDownload(task)}
                >
                  {downloading === task.task_id ? t("tasks.downloadBusy") : t("tasks.download")}
                </button>
              ) : task.result_url ? (
                <code className="hint">{task.result_url}</code>
              ) : (
                "–"
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
