import { type FormEvent, useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiFailure } from "../api/api-failure";
import type { LogStatistics, Token, UsageLog } from "../api/management-types";
import { unwrapAnswer } from "../api/unwrap-answer";
import { Notice, type NoticeMessage } from "../components/notice";
import { PageHeading } from "../components/page-heading";
import { Pager } from "../components/pager";
import { describeError } from "../format/describe-error";
import { useFormat } from "../format/use-format";
import type { Session } from "../session";
import { UsageChart } from "./usage-chart";
import { UsageLogTable } from "./usage-log-table";

const pageSize = 20;
const day = 86_400;

interface UsageFilter {
  tokenId?: number;
  model?: string;
  startTime: number;
  endTime: number;
}

function toDateInput(unixSeconds: number): string {
  return new Date(unixSeconds * 1000 - new Date().getTimezoneOffset() * 60_000).toISOString().slice(0, 10);
}

/** The caller's requests: filters, totals, a chart of quota and requests per day and model, and the log rows. */
export function UsagePage({ session }: { session: Session }) {
  const { client } = session;
  const { t } = useTranslation();
  const format = useFormat();
  const [tokens, setTokens] = useState<Token[]>([]);
  const [filter, setFilter] = useState<UsageFilter>(() => {
    const today = new Date();
    today.setHours(0, 0, 0, 0);
    const start = Math.floor(today.getTime() / 1000) - 6 * day;
    return { startTime: start, endTime: start + 7 * day };
  });
  const [page, setPage] = useState(1);
  const [logs, setLogs] = useState<{ items: UsageLog[]; total: number }>();
  const [statistics, setStatistics] = useState<LogStatistics | "unavailable">();
  const [notice, setNotice] = useState<NoticeMessage>();

  useEffect(() => {
    unwrapAnswer(client.GET("/api/token/", { params: { query: { p: 1, size: 100 } } }))
      .then((answer) => setTokens(answer.data.items))
      .catch((error: unknown) => setNotice({ kind: "error", text: describeError(error, t) }));
  }, [client, t]);

  const load = useCallback(async () => {
    const query = {
      ...(filter.tokenId ? { token_id: filter.tokenId } : {}),
      ...(filter.model ? { model: filter.model } : {}),
      start_time: filter.startTime,
      end_time: filter.endTime,
    };
    try {
      const answer = await unwrapAnswer(
        client.GET("/api/log/self", { params: { query: { ...query, p: page, size: pageSize } } }),
      );
      setLogs(answer.data);
    } catch (error) {
      setNotice({ kind: "error", text: describeError(error, t) });
    }
  }, [client, filter, page, t]);
  useEffect(() => {
    void load();
  }, [load]);

  useEffect(() => {
    const query = {
      granularity: "day" as const,
      ...(filter.tokenId ? { token_id: filter.tokenId } : {}),
      ...(filter.model ? { model: filter.model } : {}),
      start_time: filter.startTime,
      end_time: filter.endTime,
    };
    unwrapAnswer(client.GET("/api/log/stat", { params: { query } }))
      .then((answer) => setStatistics(answer.data))
      .catch((error: unknown) => {
        // A gateway without the statistics operation (501) still shows the log rows.
        if (error instanceof ApiFailure && (error.status === 501 || error.status === 404)) setStatistics("unavailable");
        else setNotice({ kind: "error", text: describeError(error, t) });
      });
  }, [client, filter, t]);

  function applyFilter(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const toUnix = (name: string) => Math.floor(new Date(`${String(form.get(name))}T00:00`).getTime() / 1000);
    const tokenId = Number(form.get("tokenId"));
    const model = String(form.get("model")).trim();
    setPage(1);
    setFilter({
      ...(tokenId ? { tokenId } : {}),
      ...(model ? { model } : {}),
      startTime: toUnix("from"),
      endTime: toUnix("to") + day,
    });
  }

  return (
    <>
      <PageHeading>{t("usage.title")}</PageHeading>
      <form className="toolbar" aria-label={t("usage.filters")} onSubmit={applyFilter}>
        <label>
          {t("usage.token")}
          <select name="tokenId" defaultValue={filter.tokenId ?? ""}>
            <option value="">{t("usage.allTokens")}</option>
            {tokens.map((token) => (
              <option key={token.id} value={token.id}>
                {token.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t("usage.model")}
          <input name="model" defaultValue={filter.model} />
        </label>
        <label>
          {t("usage.from")}
          <input name="from" type="date" required defaultValue={toDateInput(filter.startTime)} />
        </label>
        <label>
          {t("usage.to")}
          <input name="to" type="date" required defaultValue={toDateInput(filter.endTime - day)} />
        </label>
        <button type="submit">{t("common.show")}</button>
      </form>
      <Notice notice={notice} />
      {statistics === "unavailable" && <p>{t("usage.statisticsUnavailable")}</p>}
      {statistics && statistics !== "unavailable" && (
        <section aria-labelledby="totals-heading">
          <h2 id="totals-heading">{t("usage.totals")}</h2>
          <dl className="totals">
            <div>
              <dt>{t("usage.requests")}</dt>
              <dd>{format.number(statistics.totals.requests)}</dd>
            </div>
            <div>
              <dt>{t("usage.failed")}</dt>
              <dd>{format.number(statistics.totals.errors)}</dd>
            </div>
            <div>
              <dt>{t("usage.promptTokens")}</dt>
              <dd>{format.number(statistics.totals.prompt_tokens)}</dd>
            </div>
            <div>
              <dt>{t("usage.completionTokens")}</dt>
              <dd>{format.number(statistics.totals.completion_tokens)}</dd>
            </div>
            <div>
              <dt>{t("usage.spent")}</dt>
              <dd>{format.quota(statistics.totals.quota)}</dd>
            </div>
          </dl>
          <UsageChart
            title={t("usage.quotaChart")}
            buckets={statistics.items}
            startTime={statistics.start_time}
            endTime={statistics.end_time}
            measure={(bucket) => bucket.quota}
            describe={format.quota}
          />
          <UsageChart
            title={t("usage.requestsChart")}
            buckets={statistics.items}
            startTime={statistics.start_time}
            endTime={statistics.end_time}
            measure={(bucket) => bucket.requests}
            describe={(value) => t("usage.requestCount", { count: value, value: format.number(value) })}
          />
        </section>
      )}
      <h2>{t("usage.requests")}</h2>
      {logs && (
        <>
          <UsageLogTable logs={logs.items} />
          <Pager page={page} pageSize={pageSize} total={logs.total} label={t("usage.pages")} onPage={setPage} />
        </>
      )}
    </>
  );
}
