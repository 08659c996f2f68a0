import { useTranslation } from "react-i18next";
import type { UsageLog } from "../api/management-types";
import { useFormat } from "../format/use-format";

/** One page of the caller's usage log rows, newest first. */
export function UsageLogTable({ logs }: { logs: UsageLog[] }) {
  const { t } = useTranslation();
  const format = useFormat();
  if (logs.length === 0) return <p>{t("usage.noRequests")}</p>;
  return (
    <table className="responsive-table">
      <caption className="visually-hidden">{t("usage.requests")}</caption>
      <thead>
        <tr>
          <th scope="col">{t("usage.time")}</th>
          <th scope="col">{t("usage.token")}</th>
          <th scope="col">{t("usage.model")}</th>
          <th scope="col">{t("usage.result")}</th>
          <th scope="col">{t("usage.tokens")}</th>
          <th scope="col">{t("usage.cost")}</th>
          <th scope="col">{t("usage.latency")}</th>
          <th scope="col">{t("usage.requestId")}</th>
        </tr>
      </thead>
      <tbody>
        {logs.map((log) => (
          <tr key={log.id}>
            <td data-label={t("usage.time")}>{format.time(log.created_time)}</td>
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
            <td data-label={t("usage.cost")}>{format.quota(log.quota)}</td>
            <td data-label={t("usage.latency")}>{t("usage.milliseconds", { value: format.number(log.latency_ms) })}</td>
            <td data-label={t("usage.requestId")}>
              <code>{log.request_id}</code>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
