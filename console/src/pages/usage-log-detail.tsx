import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { AdminUsageLogDetail, UsageLog } from "../api/management-types";
import { unwrapAnswer } from "../api/unwrap-answer";
import type { ConsoleClient } from "../api/create-console-client";
import { ModalDialog } from "../components/modal-dialog";
import { describeError } from "../format/describe-error";
import { useFormat } from "../format/use-format";

/**
 * One request in full: who, which channel, tokens by kind (cache reads and writes apart), cost, latency and its
 * request id. Administrators' rows are read again through `GET /api/log/{id}`, which adds the user and the
 * channel's name; a user's own row is shown as listed.
 */
export function UsageLogDetail({
  client,
  log,
  everyone,
  onClose,
}: {
  client: ConsoleClient;
  log: UsageLog;
  everyone: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  const [detail, setDetail] = useState<AdminUsageLogDetail>();
  const [failure, setFailure] = useState<string>();
  useEffect(() => {
    if (!everyone) return;
    unwrapAnswer(client.GET("/api/log/{id}", { params: { path: { id: log.id } } }))
      .then((answer) => setDetail(answer.data))
      .catch((error: unknown) => setFailure(describeError(error, t)));
  }, [client, everyone, log.id, t]);
  const shown = detail ?? log;
  const channel =
    shown.channel_id === null
      ? t("usage.noChannel")
      : detail?.channel_name
        ? t("usage.channelNamed", { name: detail.channel_name, id: shown.channel_id })
        : `#${shown.channel_id}`;
  const rows: Array<[string, string]> = [
    [t("usage.time"), format.time(shown.created_time)],
    ...(detail ? ([[t("usage.user"), `${detail.username} (#${detail.user_id})`]] as Array<[string, string]>) : []),
    [t("usage.token"), shown.token_name],
    [t("usage.model"), shown.model],
    [t("usage.channel"), channel],
    [t("usage.group"), shown.group || "—"],
    [
      t("usage.result"),
      shown.status === "success" ? t("usage.success") : t("usage.error", { message: shown.error_message ?? "" }),
    ],
    [t("usage.promptTokens"), format.number(shown.prompt_tokens)],
    [t("usage.cacheReadTokens"), format.number(shown.cached_tokens)],
    [t("usage.cacheWriteTokens"), format.number(shown.cache_write_tokens)],
    [t("usage.completionTokens"), format.number(shown.completion_tokens)],
    [t("usage.reasoningTokens"), format.number(shown.reasoning_tokens)],
    [t("usage.cost"), format.quota(shown.quota)],
    [t("usage.latency"), t("usage.milliseconds", { value: format.number(shown.latency_ms) })],
  ];
  return (
    <ModalDialog title={t("usage.detailTitle")} onClose={onClose}>
      {failure && <p className="error">{failure}</p>}
      <dl className="totals">
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
        <div>
          <dt>{t("usage.requestId")}</dt>
          <dd>
            <code>{shown.request_id}</code>
          </dd>
        </div>
      </dl>
      <form method="dialog">
        <button type="submit">{t("usage.close")}</button>
      </form>
    </ModalDialog>
  );
}
