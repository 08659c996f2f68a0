import type { FormEvent } from "react";
import { useTranslation } from "react-i18next";
import type { CreateRedemptionCodesRequest } from "../api/management-types";
import { useFormSubmission } from "../components/use-form-submission";
import { unitsPerDollar } from "../format/use-format";

/** A batch of one-time codes: its name, how many, the value of each in US dollars, and an optional expiry day. */
export function RedemptionBatchForm({
  onSubmit,
  onCancel,
}: {
  onSubmit: (fields: CreateRedemptionCodesRequest) => Promise<void>;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const { busy, send, failureAlert } = useFormSubmission(onSubmit);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? "").trim();
    const expiry = text("expiry");
    await send({
      name: text("name"),
      count: Number(text("count")),
      // The value is typed in dollars; the wallet counts whole units.
      quota: Math.round(Number(text("dollars")) * unitsPerDollar),
      // The code stops working at the end of the chosen day (local time); none means it never expires.
      expires_time: expiry ? Math.floor(new Date(`${expiry}T23:59:59`).getTime() / 1000) : -1,
    });
  }

  return (
    <form className="stacked-form" onSubmit={submit}>
      {failureAlert}
      <label>
        {t("redemptionForm.name")}
        <input name="name" required maxLength={64} />
      </label>
      <div className="form-row">
        <label>
          {t("redemptionForm.count")}
          <input name="count" type="number" required min={1} max={100} step={1} defaultValue={1} />
        </label>
        <label>
          {t("redemptionForm.dollars")}
          <input name="dollars" type="number" required min={0.000002} step="any" />
        </label>
      </div>
      <label>
        {t("redemptionForm.expiry")}
        <input name="expiry" type="date" />
      </label>
      <div className="form-actions">
        <button type="submit" disabled={busy}>
          {t("redemptionForm.create")}
        </button>
        <button type="button" onClick={onCancel}>
          {t("common.cancel")}
        </button>
      </div>
    </form>
  );
}
