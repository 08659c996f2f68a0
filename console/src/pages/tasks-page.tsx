import { type FormEvent, useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { TaskStatus, UserTask } from "../api/management-types";
import { unwrapAnswer } from "../api/unwrap-answer";
import { Notice, type NoticeMessage } from "../components/notice";
import { PageHeading } from "../components/page-heading";
import { Pager } from "../components/pager";
import { describeError } from "../format/describe-error";
import { useFormat } from "../format/use-format";
import type { Session } from "../session";
import { downloadTaskVideo } from "./download-task-video";
import { TaskTable } from "./task-table";

const pageSize = 20;
const statuses: TaskStatus[] = ["queued", "in_progress", "completed", "failed"];

/** The caller's asynchronous video tasks: status, progress, cost and where the result is. */
export function TasksPage({ session }: { session: Session }) {
  const { client } = session;
  const { t } = useTranslation();
  const format = useFormat();
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
      setNotice({ kind: "error", text: describeError(error, t) });
    }
  }, [client, page, status, t]);
  useEffect(() => {
    void load();
  }, [load]);

  async function download(task: UserTask) {
    setDownloading(task.task_id);
    try {
      await downloadTaskVideo(client, task.task_id);
      setNotice({ kind: "success", text: t("tasks.downloading", { id: task.task_id }) });
    } catch (error) {
      setNotice({
        kind: "error",
        text: t("tasks.downloadFailed", { id: task.task_id, reason: describeError(error, t) }),
      });
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
      <PageHeading>{t("tasks.title")}</PageHeading>
      <form className="toolbar" aria-label={t("tasks.filters")} onSubmit={applyFilter}>
        <label>
          {t("tasks.status")}
          <select name="status" defaultValue={status ?? ""}>
            <option value="">{t("tasks.allStatuses")}</option>
            {statuses.map((candidate) => (
              <option key={candidate} value={candidate}>
                {format.taskStatus(candidate)}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">{t("common.show")}</button>
        <button type="button" onClick={() => void load()}>
          {t("common.refresh")}
        </button>
      </form>
      <Notice notice={notice} />
      {tasks && (
        <>
          <TaskTable tasks={tasks.items} downloading={downloading} onDownload={(task) => void download(task)} />
          <Pager page={page} pageSize={pageSize} total={tasks.total} label={t("tasks.pages")} onPage={setPage} />
        </>
      )}
    </>
  );
}
