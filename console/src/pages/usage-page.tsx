import { type FormEvent, useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiFailure } from "../api/api-failure";
import type { AdminUsageLog, LogStatistics, Token, UsageLog } from "../api/management-types";
import { unwrapAnswer } from "../api/unwrap-answer";
import { Notice, type NoticeMessage } from "../components/notice";
import { PageHeading } from "../components/page-heading";
import { Pager } from "../components/pager";
import { describeError } from "../format/describe-error";
import { useFormat } from "../format/use-format";
import type { Session } from "../session";
import { downloadUsageLogCsv } from "./download-usage-log-csv";
import { UsageChart } from "./usage-chart";
import { UsageLogDetail } from "./usage-log-detail";
import { UsageLogTable } from "./usage-log-table";
import { UserPicker } from "../components/user-picker";

const pageSize = 20;
const day = 86_400;

interface UsageFilter {
  tokenId?: number;
  model?: string;
  startTime: number;
  endTime: number;
  /** Administrators' view of every user only. */
  userId?: number;
  channelId?: number;
  group?: string;
  status?: "success" | "error";
  requestId?: string;
}

type Scope = "self" | "all";

function toDateInput(unixSeconds: number): string {
  return new Date(unixSeconds * 1000 - new Date().getTimezoneOffset() * 60_000).toISOString().slice(0, 10);
}

/**
 * The caller's requests (or, for administrators, every user's): filters, totals, a chart of quota and requests per
 * day and model, the log rows with one request's detail, and every user's rows as CSV.
 */
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
  const isAdmin = session.user.role !== "user";
  const [scope, setScope] = useState<Scope>("self");
  const everyone = isAdmin && scope === "all";
  const [page, setPage] = useState(1);
  const [logs, setLogs] = useState<{ items: UsageLog[]; total: number }>();
  // Every user's log is paged by cursor: the cursors of the pages seen so far, the first page's being undefined.
  const [cursors, setCursors] = useState<Array<string | undefined>>([undefined]);
  const [allLogs, setAllLogs] = useState<{ items: AdminUsageLog[]; nextCursor: string | null }>();
  const [opened, setOpened] = useState<UsageLog>();
  const [statistics, setStatistics] = useState<LogStatistics | "unavailable">();
  const [notice, setNotice] = useState<NoticeMessage>();

  useEffect(() => {
    unwrapAnswer(client.GET("/api/token/", { params: { query: { p: 1, size: 100 } } }))
      .then((answer) => setTokens(answer.data.items))
      .catch((error: unknown) => setNotice({ kind: "error", text: describeError(error, t) }));
  }, [client, t]);

  const administratorQuery = {
    ...(filter.tokenId ? { token_id: filter.tokenId } : {}),
    ...(filter.model ? { model: filter.model } : {}),
    ...(filter.userId ? { user_id: filter.userId } : {}),
    ...(filter.channelId ? { channel_id: filter.channelId } : {}),
    ...(filter.group ? { group: filter.group } : {}),
    ...(filter.status ? { status: filter.status } : {}),
    ...(filter.requestId ? { request_id: filter.requestId } : {}),
    start_time: filter.startTime,
    end_time: filter.endTime,
  };
  const cursor = cursors[cursors.length - 1];
  const load = useCallback(async () => {
    const query = {
      ...(filter.tokenId ? { token_id: filter.tokenId } : {}),
      ...(filter.model ? { model: filter.model } : {}),
      start_time: filter.startTime,
      end_time: filter.endTime,
    };
    try {
      if (everyone) {
        const allQuery = {
          ...query,
          ...(filter.userId ? { user_id: filter.userId } : {}),
          ...(filter.channelId ? { channel_id: filter.channelId } : {}),
          ...(filter.group ? { group: filter.group } : {}),
          ...(filter.status ? { status: filter.status } : {}),
          ...(filter.requestId ? { request_id: filter.requestId } : {}),
          ...(cursor ? { cursor } : {}),
          size: pageSize,
        };
        const answer = await unwrapAnswer(client.GET("/api/log/", { params: { query: allQuery } }));
        setAllLogs({ items: answer.data.items, nextCursor: answer.data.next_cursor });
        return;
      }
      const answer = await unwrapAnswer(
        client.GET("/api/log/self", { params: { query: { ...query, p: page, size: pageSize } } }),
      );
      setLogs(answer.data);
    } catch (error) {
      setNotice({ kind: "error", text: describeError(error, t) });
    }
  }, [client, cursor, everyone, filter, page, t]);
  useEffect(() => {
    void load();
  }, [load]);

  useEffect(() => {
    const query = {
      granularity: "day" as const,
      scope,
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
  }, [client, filter, scope, t]);

  function applyFilter(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const toUnix = (name: string) => Math.floor(new Date(`${String(form.get(name))}T00:00`).getTime() / 1000);
    const text = (name: string) => String(form.get(name) ?? "").trim();
    const tokenId = Number(form.get("tokenId"));
    const model = text("model");
    const channelId = Number(text("channelId"));
    const status = text("status");
    setPage(1);
    setCursors([undefined]);
    setFilter({
      ...(tokenId ? { tokenId } : {}),
      ...(model ? { model } : {}),
      startTime: toUnix("from"),
      endTime: toUnix("to") + day,
      ...(Number(text("userId")) > 0 ? { userId: Number(text("userId")) } : {}),
      ...(Number.isInteger(channelId) && channelId > 0 ? { channelId } : {}),
      ...(text("group") ? { group: text("group") } : {}),
      ...(status === "success" || status === "error" ? { status } : {}),
      ...(text("requestId") ? { requestId: text("requestId") } : {}),
    });
  }

  function changeScope(next: Scope) {
    setScope(next);
    setPage(1);
    setCursors([undefined]);
  }

  async function exportCsv() {
    try {
      await downloadUsageLogCsv(client, administratorQuery);
    } catch (error) {
      setNotice({ kind: "error", text: describeError(error, t) });
    }
  }

  return (
    <>
      <PageHeading>{t("usage.title")}</PageHeading>
      {isAdmin && (
        <div className="toolbar">
          <label>
            {t("usage.scope")}
            <select value={scope} onChange={(event) => changeScope(event.target.value === "all" ? "all" : "self")}>
              <option value="self">{t("usage.scopeSelf")}</option>
              <option value="all">{t("usage.scopeAll")}</option>
            </select>
          </label>
        </div>
      )}
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
        {everyone && (
          <>
            <UserPicker
              client={client}
              label={t("usage.user")}
              name="userId"
              emptyLabel={t("usage.allUsers")}
              {...(filter.userId ? { defaultUserId: filter.userId } : {})}
            />
            <label>
              {t("usage.channelId")}
              <input name="channelId" inputMode="numeric" defaultValue={filter.channelId} />
            </label>
            <label>
              {t("usage.group")}
              <input name="group" defaultValue={filter.group} />
            </label>
            <label>
              {t("usage.status")}
              <select name="status" defaultValue={filter.status ?? ""}>
                <option value="">{t("usage.allStatuses")}</option>
                <option value="success">{t("usage.success")}</option>
                <option value="error">{t("usage.failed")}</option>
              </select>
            </label>
            <label>
              {t("usage.requestId")}
              <input name="requestId" defaultValue={filter.requestId} />
            </label>
          </>
        )}
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
              <dt>{t("usage.cacheReadTokens")}</dt>
              <dd>{format.number(statistics.totals.cached_tokens)}</dd>
            </div>
            <div>
              <dt>{t("usage.cacheWriteTokens")}</dt>
              <dd>{format.number(statistics.totals.cache_write_tokens)}</dd>
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
      {everyone && (
        <div className="toolbar">
          <button type="button" onClick={() => void exportCsv()}>
            {t("usage.exportCsv")}
          </button>
        </div>
      )}
      {!everyone && logs && (
        <>
          <UsageLogTable logs={logs.items} onOpen={setOpened} />
          <Pager page={page} pageSize={pageSize} total={logs.total} label={t("usage.pages")} onPage={setPage} />
        </>
      )}
      {everyone && allLogs && (
        <>
          <UsageLogTable logs={allLogs.items} everyone onOpen={setOpened} />
          <nav className="toolbar" aria-label={t("usage.pages")}>
            <button
              type="button"
              disabled={cursors.length === 1}
              onClick={() => setCursors((seen) => seen.slice(0, -1))}
            >
              {t("usage.newerPage")}
            </button>
            <button
              type="button"
              disabled={allLogs.nextCursor === null}
              onClick={() => setCursors((seen) => [...seen, allLogs.nextCursor ?? undefined])}
            >
              {t("usage.olderPage")}
            </button>
          </nav>
        </>
      )}
      {opened && (
        <UsageLogDetail client={client} log={opened} everyone={everyone} onClose={() => setOpened(undefined)} />
      )}
    </>
  );
}
