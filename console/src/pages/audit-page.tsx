import { type FormEvent, useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { AuditEntry } from "../api/management-types";
import { unwrapAnswer } from "../api/unwrap-answer";
import { Notice, type NoticeMessage } from "../components/notice";
import { UserPicker } from "../components/user-picker";
import { PageHeading } from "../components/page-heading";
import { Pager } from "../components/pager";
import { describeError } from "../format/describe-error";
import { useFormat } from "../format/use-format";
import type { Session } from "../session";

const pageSize = 20;

interface AuditFilter {
  action: string;
  actorUserId: string;
}

/**
 * The audit log (administrators): every administrative change, newest first, with who made it, what it touched and
 * the object before and after (the gateway has already left secrets out).
 */
export function AuditPage({ session }: { session: Session }) {
  const { client } = session;
  const { t } = useTranslation();
  const format = useFormat();
  const [page, setPage] = useState(1);
  const [filter, setFilter] = useState<AuditFilter>({ action: "", actorUserId: "" });
  const [entries, setEntries] = useState<{ items: AuditEntry[]; total: number }>();
  const [notice, setNotice] = useState<NoticeMessage>();

  const load = useCallback(async () => {
    try {
      const answer = await unwrapAnswer(
        client.GET("/api/audit", {
          params: {
            query: {
              p: page,
              size: pageSize,
              ...(filter.action ? { action: filter.action } : {}),
              ...(filter.actorUserId ? { actor_user_id: Number(filter.actorUserId) } : {}),
            },
          },
        }),
      );
      setEntries(answer.data);
      setNotice(undefined);
    } catch (error) {
      setNotice({ kind: "error", text: describeError(error, t) });
    }
  }, [client, page, filter, t]);
  useEffect(() => {
    void load();
  }, [load]);

  const applyFilter = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPage(1);
    setFilter({
      action: String(form.get("action") ?? "").trim(),
      actorUserId: String(form.get("actorUserId") ?? "").trim(),
    });
  };

  const showObject = (value: unknown) =>
    value === null || value === undefined ? (
      t("audit.nothing")
    ) : (
      <pre className="audit-object">
        <code>{JSON.stringify(value, null, 2)}</code>
      </pre>
    );

  return (
    <>
      <PageHeading>{t("audit.title")}</PageHeading>
      <form className="toolbar" aria-label={t("audit.filters")} onSubmit={applyFilter}>
        <label>
          {t("audit.action")}
          <input name="action" maxLength={64} defaultValue={filter.action} placeholder="price.update" />
        </label>
        <UserPicker
          client={client}
          label={t("audit.actor")}
          name="actorUserId"
          emptyLabel={t("audit.anyActor")}
          {...(filter.actorUserId ? { defaultUserId: Number(filter.actorUserId) } : {})}
        />
        <button type="submit">{t("common.show")}</button>
        <button type="button" onClick={() => void load()}>
          {t("common.refresh")}
        </button>
      </form>
      <Notice notice={notice} />
      {entries && entries.items.length === 0 && <p>{t("audit.none")}</p>}
      {entries && entries.items.length > 0 && (
        <table className="responsive-table">
          <caption className="visually-hidden">{t("audit.title")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("audit.time")}</th>
              <th scope="col">{t("audit.who")}</th>
              <th scope="col">{t("audit.action")}</th>
              <th scope="col">{t("audit.target")}</th>
              <th scope="col">{t("audit.before")}</th>
              <th scope="col">{t("audit.after")}</th>
            </tr>
          </thead>
          <tbody>
            {entries.items.map((entry) => (
              <tr key={entry.id}>
                <th scope="row" data-label={t("audit.time")}>
                  {format.time(entry.created_time)}
                </th>
                <td data-label={t("audit.who")}>
                  {entry.actor_user_id === null
                    ? t("audit.commandLine")
                    : t("audit.userNumber", { id: entry.actor_user_id })}
                </td>
                <td data-label={t("audit.action")}>
                  <code>{entry.action}</code>
                </td>
                <td data-label={t("audit.target")}>
                  <code>{entry.target}</code>
                </td>
                <td data-label={t("audit.before")}>{showObject(entry.before)}</td>
                <td data-label={t("audit.after")}>{showObject(entry.after)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {entries && (
        <Pager page={page} pageSize={pageSize} total={entries.total} label={t("audit.pages")} onPage={setPage} />
      )}
    </>
  );
}
