import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import type { Token } from "../api/management-types";
import { type Format, useFormat } from "../format/use-format";

/** One page of tokens with a selection column for the batch actions and each token's own actions. */
export function TokenTable({
  tokens,
  selected,
  onSelect,
  onEdit,
  onSetStatus,
  onReveal,
  onDelete,
}: {
  tokens: Token[];
  selected: Set<number>;
  onSelect: (selected: Set<number>) => void;
  onEdit: (token: Token) => void;
  onSetStatus: (token: Token, status: 1 | 2) => void;
  onReveal: (token: Token) => void;
  onDelete: (token: Token) => void;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  if (tokens.length === 0) return <p>{t("tokens.none")}</p>;
  const allSelected = tokens.every((token) => selected.has(token.id));
  const toggle = (id: number) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    onSelect(next);
  };
  return (
    <table className="responsive-table">
      <caption className="visually-hidden">{t("tokens.caption")}</caption>
      <thead>
        <tr>
          <th scope="col">
            <input
              type="checkbox"
              aria-label={t("tokens.selectAll")}
              checked={allSelected}
              onChange={() => onSelect(new Set(allSelected ? [] : tokens.map((token) => token.id)))}
            />
          </th>
          <th scope="col">{t("tokens.name")}</th>
          <th scope="col">{t("tokens.key")}</th>
          <th scope="col">{t("tokens.status")}</th>
          <th scope="col">{t("tokens.remaining")}</th>
          <th scope="col">{t("tokens.used")}</th>
          <th scope="col">{t("tokens.expires")}</th>
          <th scope="col">{t("tokens.limits")}</th>
          <th scope="col">{t("common.actions")}</th>
        </tr>
      </thead>
      <tbody>
        {tokens.map((token) => (
          <tr key={token.id}>
            <td data-label={t("tokens.select")}>
              <input
                type="checkbox"
                aria-label={t("tokens.selectLabel", { name: token.name })}
                checked={selected.has(token.id)}
                onChange={() => toggle(token.id)}
              />
            </td>
            <th scope="row" data-label={t("tokens.name")}>
              {token.name}
            </th>
            <td data-label={t("tokens.key")}>
              <code className="masked-key">{token.key}</code>
            </td>
            <td data-label={t("tokens.status")}>
              <span className={`status status-${token.status}`}>{format.tokenStatus(token.status)}</span>
            </td>
            <td data-label={t("tokens.remaining")}>
              {token.unlimited_quota ? t("tokens.unlimited") : format.quota(token.remain_quota)}
            </td>
            <td data-label={t("tokens.used")}>{format.quota(token.used_quota)}</td>
            <td data-label={t("tokens.expires")}>
              {token.expired_time === -1 ? t("tokens.never") : format.time(token.expired_time)}
            </td>
            <td data-label={t("tokens.limits")}>{describeLimits(token, t, format)}</td>
            <td data-label={t("common.actions")}>
              <div className="row-actions">
                <button
                  type="button"
                  onClick={() => onEdit(token)}
                  aria-label={t("tokens.editLabel", { name: token.name })}
                >
                  {t("common.edit")}
                </button>
                <button
                  type="button"
                  onClick={() => onSetStatus(token, token.status === 1 ? 2 : 1)}
                  aria-label={
                    token.status === 1
                      ? t("tokens.disableLabel", { name: token.name })
                      : t("tokens.enableLabel", { name: token.name })
                  }
                >
                  {token.status === 1 ? t("common.disable") : t("common.enable")}
                </button>
                <button
                  type="button"
                  onClick={() => onReveal(token)}
                  aria-label={t("tokens.showKeyLabel", { name: token.name })}
                >
                  {t("tokens.showKey")}
                </button>
                <button
                  type="button"
                  onClick={() => onDelete(token)}
                  aria-label={t("tokens.deleteLabel", { name: token.name })}
                >
                  {t("common.delete")}
                </button>
              </div>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function describeLimits(token: Token, t: TFunction, format: Format): string {
  const parts: string[] = [];
  if (token.model_limits_enabled)
    parts.push(t("tokens.limitModels", { models: token.model_limits || t("tokens.noModels") }));
  if (token.rpm_limit > 0)
    parts.push(t("tokens.limitRpm", { count: token.rpm_limit, value: format.number(token.rpm_limit) }));
  if (token.tpm_limit > 0)
    parts.push(t("tokens.limitTpm", { count: token.tpm_limit, value: format.number(token.tpm_limit) }));
  if (token.allow_ips) parts.push(t("tokens.limitIps", { ips: token.allow_ips.split(/[\n,]+/).join(", ") }));
  const group = token.group || t("tokens.ownGroup");
  parts.push(
    token.group === "auto" && token.cross_group_retry
      ? t("tokens.limitGroupCrossRetry", { group })
      : t("tokens.limitGroup", { group }),
  );
  return parts.join(t("tokens.limitSeparator"));
}
