import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { Channel, ChannelHealthState, TaskStatistics, UserUsage } from "../api/management-types";
import { unwrapAnswer } from "../api/unwrap-answer";
import type { NoticeMessage } from "../components/notice";
import { describeError } from "../format/describe-error";
import type { Format } from "../format/use-format";
import type { Session } from "../session";

const healthStates: ChannelHealthState[] = ["healthy", "cooling", "auto_disabled", "disabled"];
const channelPageSize = 100;
const topUserCount = 5;

/** Every channel, page after page (the list answers at most 100 at a time). */
async function listEveryChannel(client: Session["client"]): Promise<Channel[]> {
  const channels: Channel[] = [];
  for (let page = 1; ; page += 1) {
    const answer = await unwrapAnswer(
      client.GET("/api/channel/", { params: { query: { p: page, size: channelPageSize } } }),
    );
    channels.push(...answer.data.items);
    if (answer.data.items.length < channelPageSize || channels.length >= answer.data.total) return channels;
  }
}

/**
 * What only administrators see on the dashboard: the channels counted by health state, the video tasks in flight
 * (GET /api/task/stat) and the users who spent the most over the same 30 days as the figures above (GET
 * /api/log/stat/users, read from the rollups).
 */
export function GatewayOverview({
  session,
  format,
  startTime,
  endTime,
  onFailure,
}: {
  session: Session;
  format: Format;
  startTime: number;
  endTime: number;
  onFailure: (notice: NoticeMessage) => void;
}) {
  const { client } = session;
  const { t } = useTranslation();
  const [channels, setChannels] = useState<Channel[]>();
  const [tasks, setTasks] = useState<TaskStatistics>();
  const [topUsers, setTopUsers] = useState<UserUsage[]>();

  useEffect(() => {
    const fail = (error: unknown) => onFailure({ kind: "error", text: describeError(error, t) });
    listEveryChannel(client).then(setChannels).catch(fail);
    unwrapAnswer(client.GET("/api/task/stat"))
      .then((answer) => setTasks(answer.data))
      .catch(fail);
    const query = { start_time: startTime, end_time: endTime, limit: topUserCount };
    unwrapAnswer(client.GET("/api/log/stat/users", { params: { query } }))
      .then((answer) => setTopUsers(answer.data.items))
      .catch(fail);
  }, [client, startTime, endTime, t, onFailure]);

  const countIn = (state: ChannelHealthState) =>
    (channels ?? []).filter((channel) => (channel.health?.state ?? "healthy") === state).length;

  return (
    <section aria-labelledby="dashboard-gateway">
      <h2 id="dashboard-gateway">{t("dashboard.gateway")}</h2>
      <dl className="totals">
        {channels &&
          healthStates.map((state) => (
            <div key={state}>
              <dt>{t("dashboard.channelsIn", { state: t(`channels.healthStates.${state}`) })}</dt>
              <dd>{format.number(countIn(state))}</dd>
            </div>
          ))}
        {tasks && (
          <>
            <div>
              <dt>{t("dashboard.tasksQueued")}</dt>
              <dd>{format.number(tasks.queued)}</dd>
            </div>
            <div>
              <dt>{t("dashboard.tasksInProgress")}</dt>
              <dd>{format.number(tasks.in_progress)}</dd>
              {tasks.oldest_created_at !== null && (
                <dd className="hint">{t("dashboard.oldestTask", { time: format.time(tasks.oldest_created_at) })}</dd>
              )}
            </div>
          </>
        )}
      </dl>
      <h3 id="dashboard-top-users">{t("dashboard.topUsers")}</h3>
      {topUsers?.length === 0 && <p>{t("dashboard.noUsage")}</p>}
      {topUsers && topUsers.length > 0 && (
        <table className="responsive-table" aria-labelledby="dashboard-top-users">
          <thead>
            <tr>
              <th scope="col">{t("usage.user")}</th>
              <th scope="col">{t("usage.requests")}</th>
              <th scope="col">{t("dashboard.tokens")}</th>
              <th scope="col">{t("usage.spent")}</th>
            </tr>
          </thead>
          <tbody>
            {topUsers.map((entry) => (
              <tr key={entry.user_id}>
                <th scope="row" data-label={t("usage.user")}>
                  {entry.username === ""
                    ? t("dashboard.deletedUser", { id: entry.user_id })
                    : t("dashboard.userWithId", { name: entry.username, id: entry.user_id })}
                </th>
                <td data-label={t("usage.requests")}>{format.number(entry.requests)}</td>
                <td data-label={t("dashboard.tokens")}>
                  {format.number(entry.prompt_tokens + entry.completion_tokens)}
                </td>
                <td data-label={t("usage.spent")}>{format.quota(entry.quota)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
