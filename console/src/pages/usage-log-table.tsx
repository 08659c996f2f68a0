import { useTranslation } from "react-i18next";
import type { AdminUsageLog, UsageLog } from "../api/management-types";
import { useFormat } from "../format/use-format";

/** One page of usage log rows, newest first; with `everyone`, each row says whose request it was. */
export function UsageLogTable({
  logs,
  everyone = false,
  onOpen,
}: {
  logs: Array<UsageLog | AdminUsageLog>;
  everyone?: boolean;
  onOpen: (log: UsageLog) => void;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  if (logs.length === 0) return <p>{t("usage.noRequests")}</p>;
  return (
    <table className="responsive-table">
      <caption className="visually-hidden">{t("usage.requests")}</caption>
      <thead>
        <tr>
          <th scope="col">{t("usage.time")}</th>
          {everyone && <th scope="col">{t("usage.user")}</th>}
          <th scope="col">{t("usage.token")}</th>
          <th scope="col">{t("usage.model")}</th>
          <th scope="col">{t("usage.result")}</th>
          <th scope="col">{t("usage.tokens")}</th>
          <th scope="col">{t("usage.cacheTokens")}</th>
          <th scope="col">{t("usage.cost")}</th>
          <th scope="col">{t("usage.latency")}</th>
          <th scope="col">{t("usage.requestId")}</th>
        </tr>
      </thead>
      <tbody>
        {logs.map((log) => (
          <tr key={log.id}>
            <td data-label={t("usage.time")}>{format.time(log.created_time)}</td>
            {everyone && <td data-label={t("usage.user")}>{"username" in log ? log.username : ""}</td>}
            <td data-label={t("usage.token")}>{log.token_name}</td>
            <th scope="row" data-label={t("usage.model")}>
              {log.model}
              {log.is_stream && <span className="hint"> {t("usage.stream")}</span>}
            </th>
            <td data-label={t("usage.result")}>
              {log.status === "success" ? (
                <span className="success">{t("usage.success")}</span>
              ) : (
                <span className="error">{t("usage.error", { message: log.error_message ?? "" })}</span>
              )}
            </td>
            <td data-label={t("usage.tokens")}>
              {format.number(log.prompt_tokens)} / {format.number(log.completion_tokens)}
            </td>
            <td data-label={t("usage.cacheTokens")}>
              {format.number(log.cached_tokens)} / {format.number(log.cache_write_tokens)}
            </td>
            <td data-label={t("usage.cost")}>{format.quota(log.quota)}</td>
            <td data-label={t("usage.latency")}>{t("usage.milliseconds", { value: format.number(log.latency_ms) })}</td>
            <td data-label={t("usage.requestId")}>
              <button
                type="button"
                className="link-button"
                aria-label={t("usage.openDetail", { id: log.request_id })}
                onClick={() => onOpen(log)}
              >
                <code>{log.request_id}</code>
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
