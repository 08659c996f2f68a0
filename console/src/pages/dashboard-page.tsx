import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiFailure } from "../api/api-failure";
import type { LogStatistics, Token, TokenRate, UsageBucket, UsageLog } from "../api/management-types";
import { unwrapAnswer } from "../api/unwrap-answer";
import { Notice, type NoticeMessage } from "../components/notice";
import { PageHeading } from "../components/page-heading";
import { describeError } from "../format/describe-error";
import { type Format, useFormat } from "../format/use-format";
import type { Session } from "../session";
import { GatewayOverview } from "./gateway-overview";
import { UsageChart } from "./usage-chart";

const day = 86_400;
const shownDays = 30;
const topModelCount = 5;
const recentErrorCount = 5;

type Scope = "self" | "all";

/** Sums of the buckets of the last `days` UTC days (today included). */
function spentSince(buckets: UsageBucket[], todayStart: number, days: number): number {
  const since = todayStart - (days - 1) * day;
  return buckets.filter((bucket) => bucket.time >= since).reduce((sum, bucket) => sum + bucket.quota, 0);
}

function topModels(buckets: UsageBucket[]) {
  const byModel = new Map<string, { model: string; requests: number; tokens: number; quota: number }>();
  for (const bucket of buckets) {
    const entry = byModel.get(bucket.model) ?? { model: bucket.model, requests: 0, tokens: 0, quota: 0 };
    entry.requests += bucket.requests;
    entry.tokens += bucket.prompt_tokens + bucket.completion_tokens;
    entry.quota += bucket.quota;
    byModel.set(bucket.model, entry);
  }
  return [...byModel.values()].sort((a, b) => b.quota - a.quota || b.requests - a.requests).slice(0, topModelCount);
}

/**
 * The landing page: what is left on the user's keys, what was spent today and over 7 and 30 days, requests and
 * tokens per day, the top models and the latest failed requests. The figures are added up from the usage log
 * statistics (GET /api/log/stat, read from the hourly rollups) on each visit; administrators can switch to the
 * whole gateway's figures, and see the channels' health, the tasks in flight and the top users below them. The
 * current minute of each key with an RPM or TPM limit comes from the rate limiter itself (GET /api/token/rates).
 */
export function DashboardPage({ session }: { session: Session }) {
  const { client } = session;
  const { t } = useTranslation();
  const format = useFormat();
  const isAdmin = session.user.role !== "user";
  const [scope, setScope] = useState<Scope>("self");
  const [statistics, setStatistics] = useState<LogStatistics | "unavailable">();
  const [tokens, setTokens] = useState<Token[]>();
  const [recentErrors, setRecentErrors] = useState<UsageLog[]>();
  const [rates, setRates] = useState<TokenRate[]>();
  const [notice, setNotice] = useState<NoticeMessage>();
  const [todayStart] = useState(() => Math.floor(Date.now() / 1000 / day) * day);

  useEffect(() => {
    const query = {
      granularity: "day" as const,
      scope,
      start_time: todayStart - (shownDays - 1) * day,
      end_time: todayStart + day,
    };
    unwrapAnswer(client.GET("/api/log/stat", { params: { query } }))
      .then((answer) => setStatistics(answer.data))
      .catch((error: unknown) => {
        if (error instanceof ApiFailure && (error.status === 501 || error.status === 404)) setStatistics("unavailable");
        else setNotice({ kind: "error", text: describeError(error, t) });
      });
  }, [client, scope, todayStart, t]);

  useEffect(() => {
    unwrapAnswer(client.GET("/api/token/", { params: { query: { p: 1, size: 100 } } }))
      .then((answer) => setTokens(answer.data.items))
      .catch((error: unknown) => setNotice({ kind: "error", text: describeError(error, t) }));
    unwrapAnswer(client.GET("/api/log/self", { params: { query: { p: 1, size: 100 } } }))
      .then((answer) =>
        setRecentErrors(answer.data.items.filter((log) => log.status !== "success").slice(0, recentErrorCount)),
      )
      .catch((error: unknown) => setNotice({ kind: "error", text: describeError(error, t) }));
    unwrapAnswer(client.GET("/api/token/rates"))
      .then((answer) => setRates(answer.data.items))
      .catch((error: unknown) => setNotice({ kind: "error", text: describeError(error, t) }));
  }, [client, t]);

  const limitedTokens = tokens?.filter((token) => !token.unlimited_quota) ?? [];
  const unlimitedCount = (tokens?.length ?? 0) - limitedTokens.length;
  const quotaLeft = limitedTokens.reduce((sum, token) => sum + token.remain_quota, 0);
  const buckets = statistics && statistics !== "unavailable" ? statistics.items : [];

  return (
    <>
      <PageHeading>{t("dashboard.title")}</PageHeading>
      {isAdmin && (
        <div className="toolbar">
          <label>
            {t("dashboard.scope")}
            <select value={scope} onChange={(event) => setScope(event.target.value === "all" ? "all" : "self")}>
              <option value="self">{t("dashboard.scopeSelf")}</option>
              <option value="all">{t("dashboard.scopeAll")}</option>
            </select>
          </label>
        </div>
      )}
      <Notice notice={notice} />
      <p className="hint">{t("dashboard.howCounted")}</p>
      <section aria-labelledby="dashboard-figures">
        <h2 id="dashboard-figures">{t("dashboard.figures")}</h2>
        <dl className="totals">
          {tokens && (
            <div>
              <dt>{t("dashboard.quotaLeft")}</dt>
              <dd>{format.quota(quotaLeft)}</dd>
              {unlimitedCount > 0 && (
                <dd className="hint">{t("dashboard.unlimitedKeys", { count: unlimitedCount })}</dd>
              )}
            </div>
          )}
          {statistics && statistics !== "unavailable" && (
            <>
              <div>
                <dt>{t("dashboard.spentToday")}</dt>
                <dd>{format.quota(spentSince(buckets, todayStart, 1))}</dd>
              </div>
              <div>
                <dt>{t("dashboard.spent7")}</dt>
                <dd>{format.quota(spentSince(buckets, todayStart, 7))}</dd>
              </div>
              <div>
                <dt>{t("dashboard.spent30")}</dt>
                <dd>{format.quota(statistics.totals.quota)}</dd>
              </div>
              <div>
                <dt>{t("dashboard.requests30")}</dt>
                <dd>{format.number(statistics.totals.requests)}</dd>
              </div>
              <div>
                <dt>{t("dashboard.tokens30")}</dt>
                <dd>{format.number(statistics.totals.prompt_tokens + statistics.totals.completion_tokens)}</dd>
              </div>
            </>
          )}
        </dl>
      </section>
      {rates && rates.length > 0 && <RateLimitsNow rates={rates} format={format} />}
      {statistics === "unavailable" && <p>{t("usage.statisticsUnavailable")}</p>}
      {statistics && statistics !== "unavailable" && (
        <>
          <UsageChart
            title={t("usage.requestsChart")}
            buckets={buckets}
            startTime={statistics.start_time}
            endTime={statistics.end_time}
            measure={(bucket) => bucket.requests}
            describe={(value) => t("usage.requestCount", { count: value, value: format.number(value) })}
          />
          <UsageChart
            title={t("dashboard.tokensChart")}
            buckets={buckets}
            startTime={statistics.start_time}
            endTime={statistics.end_time}
            measure={(bucket) => bucket.prompt_tokens + bucket.completion_tokens}
            describe={(value) => format.number(value)}
          />
          <section aria-labelledby="dashboard-top-models">
            <h2 id="dashboard-top-models">{t("dashboard.topModels")}</h2>
            {buckets.length === 0 ? (
              <p>{t("dashboard.noUsage")}</p>
            ) : (
              <table className="responsive-table">
                <thead>
                  <tr>
                    <th scope="col">{t("usage.model")}</th>
                    <th scope="col">{t("usage.requests")}</th>
                    <th scope="col">{t("dashboard.tokens")}</th>
                    <th scope="col">{t("usage.spent")}</th>
                  </tr>
                </thead>
                <tbody>
                  {topModels(buckets).map((entry) => (
                    <tr key={entry.model}>
                      <th scope="row" data-label={t("usage.model")}>
                        {entry.model}
                      </th>
                      <td data-label={t("usage.requests")}>{format.number(entry.requests)}</td>
                      <td data-label={t("dashboard.tokens")}>{format.number(entry.tokens)}</td>
                      <td data-label={t("usage.spent")}>{format.quota(entry.quota)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>
        </>
      )}
      {isAdmin && (
        <GatewayOverview
          session={session}
          format={format}
          startTime={todayStart - (shownDays - 1) * day}
          endTime={todayStart + day}
          onFailure={setNotice}
        />
      )}
      <section aria-labelledby="dashboard-recent-errors">
        <h2 id="dashboard-recent-errors">{t("dashboard.recentErrors")}</h2>
        {recentErrors?.length === 0 && <p>{t("dashboard.noErrors")}</p>}
        {recentErrors && recentErrors.length > 0 && (
          <ul>
            {recentErrors.map((log) => (
              <li key={log.id}>
                {format.time(log.created_time)} · {log.model} · {log.error_message}
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}

/** The current minute of each rate-limited key against its limits; a key without one limit shows its count alone. */
function RateLimitsNow({ rates, format }: { rates: TokenRate[]; format: Format }) {
  const { t } = useTranslation();
  const against = (used: number, limit: number) =>
    limit > 0
      ? t("dashboard.usedOfLimit", { used: format.number(used), limit: format.number(limit) })
      : t("dashboard.noLimit", { used: format.number(used) });
  return (
    <section aria-labelledby="dashboard-rate-limits">
      <h2 id="dashboard-rate-limits">{t("dashboard.rateLimits")}</h2>
      <p className="hint">{t("dashboard.rateLimitsHint")}</p>
      <table className="responsive-table">
        <caption className="visually-hidden">{t("dashboard.rateLimitsCaption")}</caption>
        <thead>
          <tr>
            <th scope="col">{t("dashboard.key")}</th>
            <th scope="col">{t("dashboard.requestsThisMinute")}</th>
            <th scope="col">{t("dashboard.tokensThisMinute")}</th>
          </tr>
        </thead>
        <tbody>
          {rates.map((rate) => (
            <tr key={rate.token_id}>
              <th scope="row" data-label={t("dashboard.key")}>
                {rate.name}
              </th>
              <td data-label={t("dashboard.requestsThisMinute")}>
                {against(rate.requests_this_minute, rate.rpm_limit)}
              </td>
              <td data-label={t("dashboard.tokensThisMinute")}>{against(rate.tokens_this_minute, rate.tpm_limit)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
