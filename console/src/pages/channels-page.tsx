import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { Channel, ChannelLastTest, ChannelTestResult, CreateChannelRequest } from "../api/management-types";
import { unwrapAnswer } from "../api/unwrap-answer";
import { ModalDialog } from "../components/modal-dialog";
import { Notice, type NoticeMessage } from "../components/notice";
import { PageHeading } from "../components/page-heading";
import { Pager } from "../components/pager";
import { describeError } from "../format/describe-error";
import { type Format, useFormat } from "../format/use-format";
import type { Session } from "../session";
import { ChannelForm } from "./channel-form";
import { ChannelHealthCell } from "./channel-health-cell";
import { ChannelRankEditor } from "./channel-rank-editor";

const pageSize = 20;

/**
 * Upstream accounts (administrators): list, create, edit, enable or disable, delete, test one or all with latency,
 * each channel's and key's health with a way back for what was disabled, priority and weight edited in place.
 */
export function ChannelsPage({ session }: { session: Session }) {
  const { client } = session;
  const { t } = useTranslation();
  const format = useFormat();
  const [page, setPage] = useState(1);
  const [channels, setChannels] = useState<{ items: Channel[]; total: number }>();
  const [editing, setEditing] = useState<Channel | "new">();
  const [tests, setTests] = useState<Record<number, ChannelTestResult | "running">>({});
  const [notice, setNotice] = useState<NoticeMessage>();
  const [testingAll, setTestingAll] = useState(false);

  const load = useCallback(async () => {
    try {
      const answer = await unwrapAnswer(
        client.GET("/api/channel/", { params: { query: { p: page, size: pageSize } } }),
      );
      setChannels(answer.data);
    } catch (error) {
      setNotice({ kind: "error", text: describeError(error, t) });
    }
  }, [client, page, t]);
  useEffect(() => {
    void load();
  }, [load]);

  async function act(action: () => Promise<string>) {
    try {
      setNotice({ kind: "success", text: await action() });
    } catch (error) {
      setNotice({ kind: "error", text: describeError(error, t) });
    }
    await load();
  }

  const test = async (channel: Channel) => {
    setTests((current) => ({ ...current, [channel.id]: "running" }));
    try {
      const answer = await unwrapAnswer(
        client.POST("/api/channel/{id}/test", { params: { path: { id: channel.id } }, body: {} }),
      );
      setTests((current) => ({ ...current, [channel.id]: answer.data }));
    } catch (error) {
      setTests(({ [channel.id]: _running, ...rest }) => rest);
      setNotice({ kind: "error", text: describeError(error, t) });
    }
  };
  const testAll = async () => {
    setTestingAll(true);
    try {
      const answer = await unwrapAnswer(client.POST("/api/channel/test", {}));
      const { items } = answer.data;
      // The stored outcomes (with their time) are shown from now on.
      setTests({});
      setNotice({
        kind: "success",
        text: t("channels.testedAll", {
          count: items.length,
          passed: items.filter((item) => item.success).length,
        }),
      });
    } catch (error) {
      setNotice({ kind: "error", text: describeError(error, t) });
    } finally {
      setTestingAll(false);
    }
    await load();
  };
  const reEnable = (channel: Channel, keyIndex: number | undefined) =>
    act(async () => {
      await unwrapAnswer(
        client.POST("/api/channel/{id}/health", {
          params: { path: { id: channel.id } },
          body: keyIndex === undefined ? { enabled: true } : { enabled: true, key_index: keyIndex },
        }),
      );
      return keyIndex === undefined
        ? t("channels.reEnabled", { name: channel.name })
        : t("channels.keyReEnabled", { name: channel.name, index: keyIndex + 1 });
    });
  const saveRank = (channel: Channel, rank: { priority: number; weight: number }) =>
    act(async () => {
      await unwrapAnswer(client.PUT("/api/channel/", { body: { id: channel.id, ...rank } }));
      return t("channels.rankSaved", { name: channel.name });
    });
  const setEnabled = (channel: Channel, enabled: boolean) =>
    act(async () => {
      await unwrapAnswer(client.PUT("/api/channel/", { body: { id: channel.id, enabled } }));
      return enabled ? t("channels.enabled", { name: channel.name }) : t("channels.disabled", { name: channel.name });
    });
  const remove = (channel: Channel) => {
    if (!window.confirm(t("channels.confirmDelete", { name: channel.name }))) return;
    void act(async () => {
      await unwrapAnswer(client.DELETE("/api/channel/{id}", { params: { path: { id: channel.id } } }));
      return t("channels.deleted", { name: channel.name });
    });
  };
  const save = async (fields: CreateChannelRequest) => {
    if (editing === "new") await unwrapAnswer(client.POST("/api/channel/", { body: fields }));
    else if (editing) await unwrapAnswer(client.PUT("/api/channel/", { body: { id: editing.id, ...fields } }));
    setNotice({
      kind: "success",
      text:
        editing === "new" ? t("channels.created", { name: fields.name }) : t("channels.saved", { name: fields.name }),
    });
    setEditing(undefined);
    await load();
  };

  return (
    <>
      <PageHeading>{t("channels.title")}</PageHeading>
      <div className="toolbar">
        <button type="button" onClick={() => setEditing("new")}>
          {t("channels.new")}
        </button>
        <button type="button" onClick={testAll} disabled={testingAll}>
          {testingAll ? t("channels.testingAll") : t("channels.testAll")}
        </button>
      </div>
      <Notice notice={notice} />
      {channels && channels.items.length === 0 && <p>{t("channels.none")}</p>}
      {channels && channels.items.length > 0 && (
        <table className="responsive-table">
          <caption className="visually-hidden">{t("channels.title")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("channels.name")}</th>
              <th scope="col">{t("channels.type")}</th>
              <th scope="col">{t("channels.baseUrl")}</th>
              <th scope="col">{t("channels.models")}</th>
              <th scope="col">{t("channels.groups")}</th>
              <th scope="col">{t("channels.priorityWeight")}</th>
              <th scope="col">{t("channels.state")}</th>
              <th scope="col">{t("channels.lastTest")}</th>
              <th scope="col">{t("channels.health")}</th>
              <th scope="col">{t("common.actions")}</th>
            </tr>
          </thead>
          <tbody>
            {channels.items.map((channel) => {
              const fromConfig = channel.source === "config";
              return (
                <tr key={channel.id}>
                  <th scope="row" data-label={t("channels.name")}>
                    {channel.name}
                    {fromConfig && <span className="hint"> {t("channels.fromConfig")}</span>}
                  </th>
                  <td data-label={t("channels.type")}>{channel.type}</td>
                  <td data-label={t("channels.baseUrl")}>
                    <code>{channel.base_url}</code>
                  </td>
                  <td data-label={t("channels.models")}>{channel.models.join(", ")}</td>
                  <td data-label={t("channels.groups")}>{channel.groups.join(", ")}</td>
                  <td data-label={t("channels.priorityWeight")}>
                    {fromConfig ? (
                      `${channel.priority} / ${channel.weight}`
                    ) : (
                      <ChannelRankEditor
                        key={`${channel.priority}/${channel.weight}`}
                        channel={channel}
                        onSave={(rank) => saveRank(channel, rank)}
                      />
                    )}
                  </td>
                  <td data-label={t("channels.state")}>
                    <span className={channel.enabled ? "status status-1" : "status status-2"}>
                      {channel.enabled ? t("channels.stateEnabled") : t("channels.stateDisabled")}
                    </span>
                  </td>
                  <td data-label={t("channels.lastTest")} aria-live="polite">
                    <TestOutcome result={tests[channel.id] ?? channel.last_test} format={format} />
                  </td>
                  <td data-label={t("channels.health")}>
                    <ChannelHealthCell channel={channel} format={format} onReEnable={(key) => reEnable(channel, key)} />
                  </td>
                  <td data-label={t("common.actions")}>
                    <div className="row-actions">
                      <button
                        type="button"
                        onClick={() => test(channel)}
                        aria-label={t("channels.testLabel", { name: channel.name })}
                      >
                        {t("channels.test")}
                      </button>
                      {!fromConfig && (
                        <>
                          <button
                            type="button"
                            onClick={() => setEditing(channel)}
                            aria-label={t("channels.editLabel", { name: channel.name })}
                          >
                            {t("common.edit")}
                          </button>
                          <button
                            type="button"
                            onClick={() => setEnabled(channel, !channel.enabled)}
                            aria-label={
                              channel.enabled
                                ? t("channels.disableLabel", { name: channel.name })
                                : t("channels.enableLabel", { name: channel.name })
                            }
                          >
                            {channel.enabled ? t("common.disable") : t("common.enable")}
                          </button>
                          <button
                            type="button"
                            onClick={() => remove(channel)}
                            aria-label={t("channels.deleteLabel", { name: channel.name })}
                          >
                            {t("common.delete")}
                          </button>
                        </>
                      )}
                    </div>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {channels && (
        <Pager page={page} pageSize={pageSize} total={channels.total} label={t("channels.pages")} onPage={setPage} />
      )}
      {editing && (
        <ModalDialog
          title={editing === "new" ? t("channels.new") : t("channels.editLabel", { name: editing.name })}
          onClose={() => setEditing(undefined)}
        >
          <ChannelForm
            channel={editing === "new" ? undefined : editing}
            onSubmit={save}
            onCancel={() => setEditing(undefined)}
          />
        </ModalDialog>
      )}
    </>
  );
}

/** A test run on this page, or the channel's stored last test (which says when it ran). */
function TestOutcome({
  result,
  format,
}: {
  result: ChannelTestResult | ChannelLastTest | "running" | undefined;
  format: Format;
}) {
  const { t } = useTranslation();
  if (result === undefined) return <span className="hint">{t("channels.notTested")}</span>;
  if (result === "running") return <span>{t("channels.testing")}</span>;
  const latency = format.number(result.latency_ms);
  return (
    <>
      {result.success ? (
        <span className="success">{t("channels.testPassed", { latency, model: result.model })}</span>
      ) : (
        <span className="error">{t("channels.testFailed", { latency, message: result.message })}</span>
      )}
      {"tested_time" in result && (
        <span className="hint"> {t("channels.testedAt", { time: format.time(result.tested_time) })}</span>
      )}
    </>
  );
}
