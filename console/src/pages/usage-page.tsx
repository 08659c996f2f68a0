import { type FormEvent, useCallback, useEffect, useState } from "react";
import { ApiFailure } from "../api/api-failure";
import type { LogStatistics, Token, UsageLog } from "../api/management-types";
import { unwrapAnswer } from "../api/unwrap-answer";
import { Notice, type NoticeMessage } from "../components/notice";
import { PageHeading } from "../components/page-heading";
import { Pager } from "../components/pager";
import { describeError } from "../format/describe-error";
import { formatQuota } from "../format/format-quota";
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
      .catch((error: unknown) => setNotice({ kind: "error", text: describeError(error) }));
  }, [client]);

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
      setNotice({ kind: "error", text: describeError(error) });
    }
  }, [client, filter, page]);
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
        else setNotice({ kind: "error", text: describeError(error) });
      });
  }, [client, filter]);

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
      <PageHeading>Usage</PageHeading>
      <form className="toolbar" aria-label="Usage filters" onSubmit={applyFilter}>
        <label>
          Token
          <select name="tokenId" defaultValue={filter.tokenId ?? ""}>
            <option value="">All tokens</option>
            {tokens.map((token) => (
              <option key={token.id} value={token.id}>
                {token.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Model
          <input name="model" defaultValue={filter.model} />
        </label>
        <label>
          From
          <input name="from" type="date" required defaultValue={toDateInput(filter.startTime)} />
        </label>
        <label>
          To (inclusive)
          <input name="to" type="date" required defaultValue={toDateInput(filter.endTime - day)} />
        </label>
        <button type="submit">Show</button>
      </form>
      <Notice notice={notice} />
      {statistics === "unavailable" && <p>This gateway does not offer usage statistics yet.</p>}
      {statistics && statistics !== "unavailable" && (
        <section aria-labelledby="totals-heading">
          <h2 id="totals-heading">Totals</h2>
          <dl className="totals">
            <div>
              <dt>Requests</dt>
              <dd>{statistics.totals.requests.toLocaleString("en-US")}</dd>
            </div>
            <div>
              <dt>Failed</dt>
              <dd>{statistics.totals.errors.toLocaleString("en-US")}</dd>
            </div>
            <div>
              <dt>Prompt tokens</dt>
              <dd>{statistics.totals.prompt_tokens.toLocaleString("en-US")}</dd>
            </div>
            <div>
              <dt>Completion tokens</dt>
              <dd>{statistics.totals.completion_tokens.toLocaleString("en-US")}</dd>
            </div>
            <div>
              <dt>Spent</dt>
              <dd>{formatQuota(statistics.totals.quota)}</dd>
            </div>
          </dl>
          <UsageChart
            title="Quota"
            buckets={statistics.items}
            startTime={statistics.start_time}
            endTime={statistics.end_time}
            measure={(bucket) => bucket.quota}
            describe={formatQuota}
          />
          <UsageChart
            title="Requests"
            buckets={statistics.items}
            startTime={statistics.start_time}
            endTime={statistics.end_time}
            measure={(bucket) => bucket.requests}
            describe={(value) => `${value} requests`}
          />
        </section>
      )}
      <h2>Requests</h2>
      {logs && (
        <>
          <UsageLogTable logs={logs.items} />
          <Pager page={page} pageSize={pageSize} total={logs.total} label="Request" onPage={setPage} />
        </>
      )}
    </>
  );
}
