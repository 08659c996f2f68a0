import { type FormEvent, useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { redemptionCodeStatusValues } from "../../../generated/types/management";
import type { CreateRedemptionCodesRequest, RedemptionCode, RedemptionCodeStatus } from "../api/management-types";
import { unwrapAnswer } from "../api/unwrap-answer";
import { CopyableSecret } from "../components/copyable-secret";
import { ModalDialog } from "../components/modal-dialog";
import { Notice, type NoticeMessage } from "../components/notice";
import { PageHeading } from "../components/page-heading";
import { Pager } from "../components/pager";
import { describeError } from "../format/describe-error";
import { useFormat } from "../format/use-format";
import type { Session } from "../session";
import { downloadRedemptionBatchCsv } from "./download-redemption-batch-csv";
import { RedemptionBatchForm } from "./redemption-batch-form";

const pageSize = 20;

interface CodeFilter {
  name: string;
  status: RedemptionCodeStatus | "";
}

/**
 * Redemption codes (administrators): create a batch and see its codes once (the gateway keeps only their hashes),
 * list codes by batch and status, disable unused codes one by one or a whole batch, export a batch as CSV.
 */
export function RedemptionCodesPage({ session }: { session: Session }) {
  const { client } = session;
  const { t } = useTranslation();
  const format = useFormat();
  const [page, setPage] = useState(1);
  const [filter, setFilter] = useState<CodeFilter>({ name: "", status: "" });
  const [codes, setCodes] = useState<{ items: RedemptionCode[]; total: number }>();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<{ name: string; codes: string[] }>();
  const [notice, setNotice] = useState<NoticeMessage>();

  const load = useCallback(async () => {
    try {
      const answer = await unwrapAnswer(
        client.GET("/api/redemption/", {
          params: {
            query: {
              p: page,
              size: pageSize,
              ...(filter.name ? { name: filter.name } : {}),
              ...(filter.status ? { status: filter.status } : {}),
            },
          },
        }),
      );
      setCodes(answer.data);
    } catch (error) {
      setNotice({ kind: "error", text: describeError(error, t) });
    }
  }, [client, page, filter, t]);
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

  const statusNames: Record<RedemptionCodeStatus, string> = {
    unused: t("redemption.statuses.unused"),
    redeemed: t("redemption.statuses.redeemed"),
    disabled: t("redemption.statuses.disabled"),
    expired: t("redemption.statuses.expired"),
  };

  const applyFilter = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPage(1);
    setFilter({
      name: String(form.get("name") ?? "").trim(),
      status: String(form.get("status") ?? "") as CodeFilter["status"],
    });
  };
  const create = async (fields: CreateRedemptionCodesRequest) => {
    const answer = await unwrapAnswer(client.POST("/api/redemption/", { body: fields }));
    setCreating(false);
    setCreated({ name: fields.name, codes: answer.data.codes });
    setNotice({
      kind: "success",
      text: t("redemption.created", { count: answer.data.codes.length, name: fields.name }),
    });
    setPage(1);
    setFilter({ name: fields.name, status: "" });
  };
  const disableCode = (code: RedemptionCode) =>
    act(async () => {
      await unwrapAnswer(client.POST("/api/redemption/disable", { body: { ids: [code.id] } }));
      return t("redemption.codeDisabled", { id: code.id });
    });
  const disableBatch = (name: string) => {
    if (!window.confirm(t("redemption.confirmDisableBatch", { name }))) return;
    void act(async () => {
      const answer = await unwrapAnswer(client.POST("/api/redemption/disable", { body: { name } }));
      return t("redemption.batchDisabled", { count: answer.data.disabled, name });
    });
  };
  const exportBatch = async (name: string) => {
    try {
      await downloadRedemptionBatchCsv(client, name);
    } catch (error) {
      setNotice({ kind: "error", text: describeError(error, t) });
    }
  };

  return (
    <>
      <PageHeading>{t("redemption.title")}</PageHeading>
      <div className="toolbar">
        <button type="button" onClick={() => setCreating(true)}>
          {t("redemption.new")}
        </button>
      </div>
      {created && (
        <section className="revealed-keys" aria-labelledby="created-codes-heading">
          <h2 id="created-codes-heading">{t("redemption.createdTitle", { name: created.name })}</h2>
          <p className="hint">{t("redemption.createdWarning")}</p>
          {created.codes.map((code, index) => (
            <CopyableSecret key={code} label={t("redemption.codeLabel", { index: index + 1 })} value={code} />
          ))}
          <button type="button" onClick={() => setCreated(undefined)}>
            {t("redemption.hideCodes")}
          </button>
        </section>
      )}
      <form
        className="toolbar"
        aria-label={t("redemption.filters")}
        onSubmit={applyFilter}
        key={`${filter.name}/${filter.status}`}
      >
        <label>
          {t("redemption.batch")}
          <input name="name" maxLength={64} defaultValue={filter.name} />
        </label>
        <label>
          {t("redemption.status")}
          <select name="status" defaultValue={filter.status}>
            <option value="">{t("redemption.allStatuses")}</option>
            {redemptionCodeStatusValues.map((status) => (
              <option key={status} value={status}>
                {statusNames[status]}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">{t("common.show")}</button>
      </form>
      {filter.name && (
        <div className="toolbar">
          <button type="button" onClick={() => disableBatch(filter.name)}>
            {t("redemption.disableBatch", { name: filter.name })}
          </button>
          <button type="button" onClick={() => exportBatch(filter.name)}>
            {t("redemption.exportBatch", { name: filter.name })}
          </button>
        </div>
      )}
      <Notice notice={notice} />
      {codes && codes.items.length === 0 && <p>{t("redemption.none")}</p>}
      {codes && codes.items.length > 0 && (
        <table className="responsive-table">
          <caption className="visually-hidden">{t("redemption.title")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("redemption.id")}</th>
              <th scope="col">{t("redemption.batch")}</th>
              <th scope="col">{t("redemption.value")}</th>
              <th scope="col">{t("redemption.status")}</th>
              <th scope="col">{t("redemption.expires")}</th>
              <th scope="col">{t("redemption.createdAt")}</th>
              <th scope="col">{t("redemption.redeemed")}</th>
              <th scope="col">{t("common.actions")}</th>
            </tr>
          </thead>
          <tbody>
            {codes.items.map((code) => (
              <tr key={code.id}>
                <th scope="row" data-label={t("redemption.id")}>
                  {code.id}
                </th>
                <td data-label={t("redemption.batch")}>{code.name}</td>
                <td data-label={t("redemption.value")}>{format.quota(code.quota)}</td>
                <td data-label={t("redemption.status")}>
                  <span className={code.status === "unused" ? "status status-1" : "status status-2"}>
                    {statusNames[code.status]}
                  </span>
                </td>
                <td data-label={t("redemption.expires")}>
                  {code.expires_time === -1 ? t("redemption.never") : format.time(code.expires_time)}
                </td>
                <td data-label={t("redemption.createdAt")}>{format.time(code.created_time)}</td>
                <td data-label={t("redemption.redeemed")}>
                  {code.redeemed_by !== null && code.redeemed_time !== null
                    ? t("redemption.redeemedBy", { user: code.redeemed_by, time: format.time(code.redeemed_time) })
                    : ""}
                </td>
                <td data-label={t("common.actions")}>
                  <div className="row-actions">
                    {code.status === "unused" && (
                      <button
                        type="button"
                        onClick={() => disableCode(code)}
                        aria-label={t("redemption.disableLabel", { id: code.id })}
                      >
                        {t("common.disable")}
                      </button>
                    )}
                    <button
                      type="button"
                      onClick={() => exportBatch(code.name)}
                      aria-label={t("redemption.exportBatch", { name: code.name })}
                    >
                      {t("redemption.export")}
                    </button>
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {codes && (
        <Pager page={page} pageSize={pageSize} total={codes.total} label={t("redemption.pages")} onPage={setPage} />
      )}
      {creating && (
        <ModalDialog title={t("redemption.new")} onClose={() => setCreating(false)}>
          <RedemptionBatchForm onSubmit={create} onCancel={() => setCreating(false)} />
        </ModalDialog>
      )}
    </>
  );
}
