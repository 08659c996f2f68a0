import { type FormEvent, useCallback, useEffect, useState } from "react";
import type { TaskStatus, UserTask } from "../api/management-types";
import { unwrapAnswer } from "../api/unwrap-answer";
import { Notice, type NoticeMessage } from "../components/notice";
import { PageHeading } from "../components/page-heading";
import { Pager } from "../components/pager";
import { describeError } from "../format/describe-error";
import { describeTaskStatus } from "../format/describe-task-status";
import type { Session } from "../session";
import { downloadTaskVideo } from "./download-task-video";
import { TaskTable } from "./task-table";

const pageSize = 20;
const statuses: TaskStatus[] = ["queued", "in_progress", "completed", "failed"];

/** The caller's asynchronous video tasks: status, progress, cost and where the result is. */
export function TasksPage({ session }: { session: Session }) {
  const { client } = session;
  const [status, setStatus] = useState<TaskStatus>();
  const [page, setPage] = useState(1);
  const [tasks, setTasks] = useState<{ items: UserTask[]; total: number }>();
  const [notice, setNotice] = useState<NoticeMessage>();
  const [downloading, setDownloading] = useState<string>();

  const load = useCallback(async () => {
    try {
      const query = { p: page, size: pageSize, ...(status ? { status } : {}) };
      const answer = await unwrapAnswer(client.GET("/api/task/self", { params: { query } }));
      setTasks(answer.data);
    } catch (error) {
      setNotice({ kind: "error", text: describeError(error) });
    }
  }, [client, page, status]);
  useEffect(() => {
    void load();
  }, [load]);

  async function download(task: UserTask) {
    setDownloading(task.task_id);
    try {
      await downloadTaskVideo(client, task.task_id);
      setNotice({ kind: "success", text: `Downloading the video of ${task.task_id}.` });
    } catch (error) {
      setNotice({ kind: "error", text: `Download of ${task.task_id} failed: ${describeError(error)}` });
    } finally {
      setDownloading(undefined);
    }
  }

  function applyFilter(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const chosen = String(new FormData(event.currentTarget).get("status"));
    setPage(1);
    setStatus(statuses.find((candidate) => candidate === chosen));
  }

  return (
    <>
      <PageHeading>Tasks</PageHeading>
      <form className="toolbar" aria-label="Task filters" onSubmit={applyFilter}>
        <label>
          Status
          <select name="status" defaultValue={status ?? ""}>
            <option value="">All statuses</option>
            {statuses.map((candidate) => (
              <option key={candidate} value={candidate}>
                {describeTaskStatus(candidate)}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">Show</button>
        <button type="button" onClick={() => void load()}>
          Refresh
        </button>
      </form>
      <Notice notice={notice} />
      {tasks && (
        <>
          <TaskTable tasks={tasks.items} downloading={downloading} onDownload={(task) => void download(task)} />
          <Pager page={page} pageSize={pageSize} total={tasks.total} label="Task" onPage={setPage} />
        </>
      )}
    </>
  );
}
