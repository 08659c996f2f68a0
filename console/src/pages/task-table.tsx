import type { UserTask } from "../api/management-types";
import { describeTaskStatus } from "../format/describe-task-status";
import { formatQuota } from "../format/format-quota";
import { formatTime } from "../format/format-time";

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
  if (tasks.length === 0) return <p>No video tasks match.</p>;
  return (
    <table className="responsive-table">
      <caption className="visually-hidden">Video tasks</caption>
      <thead>
        <tr>
          <th scope="col">Submitted</th>
          <th scope="col">Task id</th>
          <th scope="col">Model</th>
          <th scope="col">Status</th>
          <th scope="col">Progress</th>
          <th scope="col">Seconds</th>
          <th scope="col">Cost</th>
          <th scope="col">Result</th>
        </tr>
      </thead>
      <tbody>
        {tasks.map((task) => (
          <tr key={task.task_id}>
            <td data-label="Submitted">{formatTime(task.created_at)}</td>
            <th scope="row" data-label="Task id">
              <code>{task.task_id}</code>
            </th>
            <td data-label="Model">{task.model}</td>
            <td data-label="Status">
              <span>
                <span className={statusClass[task.status]}>{describeTaskStatus(task.status)}</span>
                {task.error && <span className="error">: {task.error}</span>}
                {task.completed_at !== null && <span className="hint"> at {formatTime(task.completed_at)}</span>}
              </span>
            </td>
            <td data-label="Progress">
              <span>
                <progress max={100} value={task.progress} aria-label={`Progress of ${task.task_id}`} /> {task.progress}%
              </span>
            </td>
            <td data-label="Seconds">{task.seconds ?? "–"}</td>
            <td data-label="Cost">{formatQuota(task.quota)}</td>
            <td data-label="Result">
              {task.download_url ? (
                <button
                  type="button"
                  aria-label={`Download the video of ${task.task_id}`}
                  aria-busy={downloading === task.task_id}
                  disabled={downloading === task.task_id}
                  onClick={() => onDownload(task)}
                >
                  {downloading === task.task_id ? "Downloading…" : "Download"}
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
