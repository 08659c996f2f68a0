import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { CreateGroupRequest, Group, ModelPriceEntry, ModelPriceFields } from "../api/management-types";
import { unwrapAnswer } from "../api/unwrap-answer";
import { ModalDialog } from "../components/modal-dialog";
import { Notice, type NoticeMessage } from "../components/notice";
import { PageHeading } from "../components/page-heading";
import { describeError } from "../format/describe-error";
import { useFormat } from "../format/use-format";
import type { Session } from "../session";
import { GroupForm } from "./group-form";
import { PriceForm, priceFieldNames } from "./price-form";

/**
 * Model prices and groups (administrators): every stored price with its source, set, changed or deleted in place;
 * every group with its ratio and who may use it. Rows from the configuration file are read-only here, since the
 * file rewrites them at every start.
 */
export function PricesPage({ session }: { session: Session }) {
  const { client } = session;
  const { t } = useTranslation();
  const format = useFormat();
  const [prices, setPrices] = useState<{ items: ModelPriceEntry[]; allow_unpriced: boolean }>();
  const [groups, setGroups] = useState<{ items: Group[]; auto_groups: string[] }>();
  const [editingPrice, setEditingPrice] = useState<ModelPriceEntry | "new">();
  const [editingGroup, setEditingGroup] = useState<Group | "new">();
  const [notice, setNotice] = useState<NoticeMessage>();

  const load = useCallback(async () => {
    try {
      const [priceAnswer, groupAnswer] = await Promise.all([
        unwrapAnswer(client.GET("/api/pricing")),
        unwrapAnswer(client.GET("/api/group")),
      ]);
      setPrices(priceAnswer.data);
      setGroups(groupAnswer.data);
    } catch (error) {
      setNotice({ kind: "error", text: describeError(error, t) });
    }
  }, [client, t]);
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

  const savePrice = async ({ model, price }: { model: string; price: ModelPriceFields }) => {
    await unwrapAnswer(client.PUT("/api/pricing/{model}", { params: { path: { model } }, body: price }));
    setNotice({ kind: "success", text: t("prices.saved", { model }) });
    setEditingPrice(undefined);
    await load();
  };
  const removePrice = (entry: ModelPriceEntry) => {
    if (!window.confirm(t("prices.confirmDelete", { model: entry.model }))) return;
    void act(async () => {
      await unwrapAnswer(client.DELETE("/api/pricing/{model}", { params: { path: { model: entry.model } } }));
      return t("prices.deleted", { model: entry.model });
    });
  };
  const saveGroup = async ({ name, ...fields }: CreateGroupRequest) => {
    if (editingGroup === "new") await unwrapAnswer(client.POST("/api/group", { body: { name, ...fields } }));
    else await unwrapAnswer(client.PUT("/api/group/{name}", { params: { path: { name } }, body: fields }));
    setNotice({
      kind: "success",
      text: editingGroup === "new" ? t("groups.created", { name }) : t("groups.saved", { name }),
    });
    setEditingGroup(undefined);
    await load();
  };
  const removeGroup = (group: Group) => {
    if (!window.confirm(t("groups.confirmDelete", { name: group.name }))) return;
    void act(async () => {
      await unwrapAnswer(client.DELETE("/api/group/{name}", { params: { path: { name: group.name } } }));
      return t("groups.deleted", { name: group.name });
    });
  };

  /** The keys a price sets, each with its value (dollars, or a token count for the output reservation). */
  const describePrice = (price: ModelPriceFields) => {
    const parts = priceFieldNames.flatMap((field) => {
      const value = price[field];
      if (value === undefined) return [];
      const shown = field === "max_output_tokens" ? format.number(value) : format.dollars(value);
      return [t("prices.fieldValue", { field: t(`prices.fields.${field}`), value: shown })];
    });
    return parts.length > 0 ? parts : [t("prices.notSet")];
  };

  return (
    <>
      <PageHeading>{t("prices.title")}</PageHeading>
      <Notice notice={notice} />
      <section aria-labelledby="model-prices-heading">
        <h2 id="model-prices-heading">{t("prices.modelPrices")}</h2>
        {prices && (
          <p className="hint">{prices.allow_unpriced ? t("prices.unpricedAllowed") : t("prices.unpricedRefused")}</p>
        )}
        <div className="toolbar">
          <button type="button" onClick={() => setEditingPrice("new")}>
            {t("prices.new")}
          </button>
        </div>
        {prices && prices.items.length === 0 && <p>{t("prices.none")}</p>}
        {prices && prices.items.length > 0 && (
          <table className="responsive-table">
            <caption className="visually-hidden">{t("prices.modelPrices")}</caption>
            <thead>
              <tr>
                <th scope="col">{t("prices.model")}</th>
                <th scope="col">{t("prices.price")}</th>
                <th scope="col">{t("prices.updated")}</th>
                <th scope="col">{t("common.actions")}</th>
              </tr>
            </thead>
            <tbody>
              {prices.items.map((entry) => {
                const fromConfig = entry.source === "config";
                return (
                  <tr key={entry.model}>
                    <th scope="row" data-label={t("prices.model")}>
                      {entry.model}
                      {fromConfig && <span className="hint"> {t("prices.fromConfig")}</span>}
                    </th>
                    <td data-label={t("prices.price")}>
                      <ul className="plain-list">
                        {describePrice(entry.price).map((part) => (
                          <li key={part}>{part}</li>
                        ))}
                      </ul>
                    </td>
                    <td data-label={t("prices.updated")}>{format.time(entry.updated_time)}</td>
                    <td data-label={t("common.actions")}>
                      {!fromConfig && (
                        <div className="row-actions">
                          <button
                            type="button"
                            onClick={() => setEditingPrice(entry)}
                            aria-label={t("prices.editLabel", { model: entry.model })}
                          >
                            {t("common.edit")}
                          </button>
                          <button
                            type="button"
                            onClick={() => removePrice(entry)}
                            aria-label={t("prices.deleteLabel", { model: entry.model })}
                          >
                            {t("common.delete")}
                          </button>
                        </div>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </section>
      <section aria-labelledby="groups-heading">
        <h2 id="groups-heading">{t("groups.title")}</h2>
        <div className="toolbar">
          <button type="button" onClick={() => setEditingGroup("new")}>
            {t("groups.new")}
          </button>
        </div>
        {groups && groups.items.length === 0 && <p>{t("groups.none")}</p>}
        {groups && groups.items.length > 0 && (
          <table className="responsive-table">
            <caption className="visually-hidden">{t("groups.title")}</caption>
            <thead>
              <tr>
                <th scope="col">{t("groups.name")}</th>
                <th scope="col">{t("groups.ratio")}</th>
                <th scope="col">{t("groups.description")}</th>
                <th scope="col">{t("groups.whoMayUse")}</th>
                <th scope="col">{t("groups.inAuto")}</th>
                <th scope="col">{t("groups.updated")}</th>
                <th scope="col">{t("common.actions")}</th>
              </tr>
            </thead>
            <tbody>
              {groups.items.map((group) => {
                const fromConfig = group.source === "config";
                const autoPlace = groups.auto_groups.indexOf(group.name);
                return (
                  <tr key={group.name}>
                    <th scope="row" data-label={t("groups.name")}>
                      {group.name}
                      {fromConfig && <span className="hint"> {t("groups.fromConfig")}</span>}
                    </th>
                    <td data-label={t("groups.ratio")}>{format.number(group.ratio)}</td>
                    <td data-label={t("groups.description")}>{group.description}</td>
                    <td data-label={t("groups.whoMayUse")}>
                      {group.selectable ? t("groups.everyone") : t("groups.allowedOnly")}
                    </td>
                    <td data-label={t("groups.inAuto")}>
                      {autoPlace === -1 ? t("groups.inAutoNo") : t("groups.inAutoYes", { place: autoPlace + 1 })}
                    </td>
                    <td data-label={t("groups.updated")}>{format.time(group.updated_time)}</td>
                    <td data-label={t("common.actions")}>
                      {!fromConfig && (
                        <div className="row-actions">
                          <button
                            type="button"
                            onClick={() => setEditingGroup(group)}
                            aria-label={t("groups.editLabel", { name: group.name })}
                          >
                            {t("common.edit")}
                          </button>
                          <button
                            type="button"
                            onClick={() => removeGroup(group)}
                            aria-label={t("groups.deleteLabel", { name: group.name })}
                          >
                            {t("common.delete")}
                          </button>
                        </div>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </section>
      {editingPrice && (
        <ModalDialog
          title={editingPrice === "new" ? t("prices.new") : t("prices.editLabel", { model: editingPrice.model })}
          onClose={() => setEditingPrice(undefined)}
        >
          <PriceForm
            entry={editingPrice === "new" ? undefined : editingPrice}
            onSubmit={savePrice}
            onCancel={() => setEditingPrice(undefined)}
          />
        </ModalDialog>
      )}
      {editingGroup && (
        <ModalDialog
          title={editingGroup === "new" ? t("groups.new") : t("groups.editLabel", { name: editingGroup.name })}
          onClose={() => setEditingGroup(undefined)}
        >
          <GroupForm
            group={editingGroup === "new" ? undefined : editingGroup}
            onSubmit={saveGroup}
            onCancel={() => setEditingGroup(undefined)}
          />
        </ModalDialog>
      )}
    </>
  );
}
