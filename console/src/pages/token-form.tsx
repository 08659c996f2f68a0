import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import type { CreateTokenRequest, SelfModelPrice, Token, UsableGroupList } from "../api/management-types";
import { useFormSubmission } from "../components/use-form-submission";
import { unitsPerDollar, useFormat } from "../format/use-format";
import { ModelLimitPicker } from "./model-limit-picker";

function toLocalInput(unixSeconds: number): string {
  const date = new Date(unixSeconds * 1000 - new Date().getTimezoneOffset() * 60_000);
  return date.toISOString().slice(0, 16);
}

/**
 * Every creation field of a token (edit shows the same ones, except how many to create). The quota is typed in
 * US dollars and sent in units; the expiry is "never" (-1) or a local date and time.
 */
export function TokenForm({
  token,
  groups,
  models,
  onSubmit,
  onCancel,
}: {
  token?: Token;
  /** The groups the user may use (GET /api/user/self/groups); the picker offers only these, `auto` and empty. */
  groups?: UsableGroupList;
  /** The models the user's groups reach, with their prices (GET /api/pricing/self), for the model limits. */
  models?: SelfModelPrice[];
  onSubmit: (fields: CreateTokenRequest) => Promise<void>;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  const [neverExpires, setNeverExpires] = useState(!token || token.expired_time === -1);
  const [unlimited, setUnlimited] = useState(token?.unlimited_quota ?? false);
  const [quotaDollars, setQuotaDollars] = useState(token ? String(token.remain_quota / unitsPerDollar) : "1");
  const [limitModels, setLimitModels] = useState(token?.model_limits_enabled ?? false);
  const [allowedModels, setAllowedModels] = useState(() => (token?.model_limits ?? "").split(/[\s,]+/).filter(Boolean));
  const [group, setGroup] = useState(token?.group ?? "");
  const ownGroup = groups?.items.find((item) => item.is_default)?.name ?? "default";
  const { busy, send, failureAlert } = useFormSubmission(onSubmit);
  const quotaUnits = Math.round(Number(quotaDollars) * unitsPerDollar);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? "").trim();
    const expiry = text("expiry");
    const fields: CreateTokenRequest = {
      name: text("name"),
      expired_time: neverExpires || !expiry ? -1 : Math.floor(new Date(expiry).getTime() / 1000),
      unlimited_quota: unlimited,
      remain_quota: unlimited ? (token?.remain_quota ?? 0) : Math.max(0, quotaUnits),
      model_limits_enabled: limitModels,
      model_limits: allowedModels,
      allow_ips: text("allowIps"),
      group,
      cross_group_retry: form.get("crossGroupRetry") === "on",
      rpm_limit: Number(text("rpmLimit")) || 0,
      tpm_limit: Number(text("tpmLimit")) || 0,
      ...(token ? {} : { count: Number(text("count")) || 1 }),
    };
    await send(fields);
  }

  return (
    <form className="stacked-form" onSubmit={submit}>
      {failureAlert}
      <label>
        {t("tokenForm.name")}
        <input name="name" required maxLength={30} defaultValue={token?.name} />
      </label>
      {!token && (
        <label>
          {t("tokenForm.count")}
          <input name="count" type="number" min={1} max={100} defaultValue={1} />
          <span className="hint">{t("tokenForm.countHint")}</span>
        </label>
      )}
      <fieldset>
        <legend>{t("tokenForm.expiry")}</legend>
        <label className="inline">
          <input type="checkbox" checked={neverExpires} onChange={(event) => setNeverExpires(event.target.checked)} />
          {t("tokenForm.neverExpires")}
        </label>
        <label>
          {t("tokenForm.expiresAt")}
          <input
            name="expiry"
            type="datetime-local"
            disabled={neverExpires}
            required={!neverExpires}
            defaultValue={token && token.expired_time !== -1 ? toLocalInput(token.expired_time) : ""}
          />
        </label>
      </fieldset>
      <fieldset>
        <legend>{t("tokenForm.quota")}</legend>
        <label className="inline">
          <input type="checkbox" checked={unlimited} onChange={(event) => setUnlimited(event.target.checked)} />
          {t("tokenForm.unlimited")}
        </label>
        <label>
          {t("tokenForm.quotaDollars")}
          <input
            name="quota"
            type="number"
            min={0}
            step="any"
            disabled={unlimited}
            value={quotaDollars}
            onChange={(event) => setQuotaDollars(event.target.value)}
            aria-describedby="quota-units"
          />
        </label>
        <span id="quota-units" className="hint">
          {unlimited ? t("tokenForm.notCounted") : format.quota(Number.isFinite(quotaUnits) ? quotaUnits : 0)}
        </span>
      </fieldset>
      <fieldset>
        <legend>{t("tokenForm.models")}</legend>
        <label className="inline">
          <input type="checkbox" checked={limitModels} onChange={(event) => setLimitModels(event.target.checked)} />
          {t("tokenForm.limitModels")}
        </label>
        <ModelLimitPicker
          models={models}
          group={group === "" ? ownGroup : group}
          selected={allowedModels}
          disabled={!limitModels}
          onChange={setAllowedModels}
        />
      </fieldset>
      <label>
        {t("tokenForm.allowIps")}
        <textarea name="allowIps" rows={2} defaultValue={token?.allow_ips} />
      </label>
      <fieldset>
        <legend>{t("tokenForm.group")}</legend>
        <label>
          {t("tokenForm.billingGroup")}
          <select name="group" value={group} onChange={(event) => setGroup(event.target.value)}>
            <option value="">{t("tokenForm.ownGroup", { group: ownGroup })}</option>
            <option value="auto">{t("tokenForm.autoGroup")}</option>
            {(groups?.items ?? []).map((item) => (
              <option key={item.name} value={item.name}>
                {t("tokenForm.groupWithRatio", { group: item.name, ratio: item.ratio })}
              </option>
            ))}
            {group !== "" && group !== "auto" && !groups?.items.some((item) => item.name === group) && (
              <option value={group}>{groups ? t("tokenForm.groupNoLongerAllowed", { group }) : group}</option>
            )}
          </select>
        </label>
        <label className="inline">
          <input
            name="crossGroupRetry"
            type="checkbox"
            defaultChecked={token?.cross_group_retry}
            aria-describedby="cross-group-hint"
          />
          {t("tokenForm.crossGroupRetry")}
        </label>
        <span id="cross-group-hint" className="hint">
          {t("tokenForm.crossGroupHint")}
        </span>
      </fieldset>
      <fieldset>
        <legend>{t("tokenForm.rateLimits")}</legend>
        <div className="form-row">
          <label>
            {t("tokenForm.rpm")}
            <input
              name="rpmLimit"
              type="number"
              min={0}
              max={1_000_000}
              step={1}
              defaultValue={token?.rpm_limit ?? 0}
            />
          </label>
          <label>
            {t("tokenForm.tpm")}
            <input
              name="tpmLimit"
              type="number"
              min={0}
              max={1_000_000_000}
              step={1}
              defaultValue={token?.tpm_limit ?? 0}
            />
          </label>
        </div>
      </fieldset>
      <div className="form-actions">
        <button type="submit" disabled={busy}>
          {token ? t("tokenForm.save") : t("tokenForm.create")}
        </button>
        <button type="button" onClick={onCancel}>
          {t("common.cancel")}
        </button>
      </div>
    </form>
  );
}
