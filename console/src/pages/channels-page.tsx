import { useCallback, useEffect, useState } from "react";
import type { Channel, ChannelTestResult, CreateChannelRequest } from "../api/management-types";
import { unwrapAnswer } from "../api/unwrap-answer";
import { ModalDialog } from "../components/modal-dialog";
import { Notice, type NoticeMessage } from "../components/notice";
import { PageHeading } from "../components/page-heading";
import { Pager } from "../components/pager";
import { describeError } from "../format/describe-error";
import type { Session } from "../session";
import { ChannelForm } from "./channel-form";

const pageSize = 20;

/** Upstream accounts (administrators): list, create, edit, enable or disable, delete, and test with latency. */
export function ChannelsPage({ session }: { session: Session }) {
  const { client } = session;
  const [page, setPage] = useState(1);
  const [channels, setChannels] = useState<{ items: Channel[]; total: number }>();
  const [editing, setEditing] = useState<Channel | "new">();
  const [tests, setTests] = useState<Record<number, ChannelTestResult | "running">>({});
  const [notice, setNotice] = useState<NoticeMessage>();

  const load = useCallback(async () => {
    try {
      const answer = await unwrapAnswer(
        client.GET("/api/channel/", { params: { query: { p: page, size: pageSize } } }),
      );
      setChannels(answer.data);
    } catch (error) {
      setNotice({ kind: "error", text: describeError(error) });
    }
  }, [client, page]);
  useEffect(() => {
    void load();
  }, [load]);

  async function act(action: () => Promise<string>) {
    try {
      setNotice({ kind: "success", text: await action() });
    } catch (error) {
      setNotice({ kind: "error", text: describeError(error) });
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
      setNotice({ kind: "error", text: describeError(error) });
    }
  };
  const setEnabled = (channel: Channel, enabled: boolean) =>
    act(async () => {
      await unwrapAnswer(client.PUT("/api/channel/", { body: { id: channel.id, enabled } }));
      return `Channel ${channel.name} ${enabled ? "enabled" : "disabled"}.`;
    });
  const remove = (channel: Channel) => {
    if (!window.confirm(`Delete channel ${channel.name}?`)) return;
    void act(async () => {
      await unwrapAnswer(client.DELETE("/api/channel/{id}", { params: { path: { id: channel.id } } }));
      return `Channel ${channel.name} deleted.`;
    });
  };
  const save = async (fields: CreateChannelRequest) => {
    if (editing === "new") await unwrapAnswer(client.POST("/api/channel/", { body: fields }));
    else if (editing) await unwrapAnswer(client.PUT("/api/channel/", { body: { id: editing.id, ...fields } }));
    setNotice({ kind: "success", text: `Channel ${fields.name} ${editing === "new" ? "created" : "saved"}.` });
    setEditing(undefined);
    await load();
  };

  return (
    <>
      <PageHeading>Channels</PageHeading>
      <div className="toolbar">
        <button type="button" onClick={() => setEditing("new")}>
          New channel
        </button>
      </div>
      <Notice notice={notice} />
      {channels && channels.items.length === 0 && <p>No channels yet.</p>}
      {channels && channels.items.length > 0 && (
        <table className="responsive-table">
          <caption className="visually-hidden">Channels</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Type</th>
              <th scope="col">Base URL</th>
              <th scope="col">Models</th>
              <th scope="col">Groups</th>
              <th scope="col">Priority / weight</th>
              <th scope="col">State</th>
              <th scope="col">Last test</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {channels.items.map((channel) => {
              const fromConfig = channel.source === "config";
              return (
                <tr key={channel.id}>
                  <th scope="row" data-label="Name">
                    {channel.name}
                    {fromConfig && <span className="hint"> (configuration file)</span>}
                  </th>
                  <td data-label="Type">{channel.type}</td>
                  <td data-label="Base URL">
                    <code>{channel.base_url}</code>
                  </td>
                  <td data-label="Models">{channel.models.join(", ")}</td>
                  <td data-label="Groups">{channel.groups.join(", ")}</td>
                  <td data-label="Priority / weight">
                    {channel.priority} / {channel.weight}
                  </td>
                  <td data-label="State">
                    <span className={channel.enabled ? "status status-1" : "status status-2"}>
                      {channel.enabled ? "Enabled" : "Disabled"}
                    </span>
                  </td>
                  <td data-label="Last test" aria-live="polite">
                    <TestOutcome result={tests[channel.id]} />
                  </td>
                  <td data-label="Actions">
                    <div className="row-actions">
                      <button type="button" onClick={() => test(channel)} aria-label={`Test channel ${channel.name}`}>
                        Test
                      </button>
                      {!fromConfig && (
                        <>
                          <button
                            type="button"
                            onClick={() => setEditing(channel)}
                            aria-label={`Edit channel ${channel.name}`}
                          >
                            Edit
                          </button>
                          <button
                            type="button"
                            onClick={() => setEnabled(channel, !channel.enabled)}
                            aria-label={`${channel.enabled ? "Disable" : "Enable"} channel ${channel.name}`}
                          >
                            {channel.enabled ? "Disable" : "Enable"}
                          </button>
                          <button
                            type="button"
                            onClick={() => remove(channel)}
                            aria-label={`Delete channel ${channel.name}`}
                          >
                            Delete
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
      {channels && <Pager page={page} pageSize={pageSize} total={channels.total} label="Channel" onPage={setPage} />}
      {editing && (
        <ModalDialog
          title={editing === "new" ? "New channel" : `Edit channel ${editing.name}`}
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

function TestOutcome({ result }: { result: ChannelTestResult | "running" | undefined }) {
  if (result === undefined) return <span className="hint">Not tested</span>;
  if (result === "running") return <span>Testing…</span>;
  return result.success ? (
    <span className="success">
      OK in {result.latency_ms} ms ({result.model})
    </span>
  ) : (
    <span className="error">
      Failed after {result.latency_ms} ms: {result.message}
    </span>
  );
}
