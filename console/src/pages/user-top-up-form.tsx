import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import type { User } from "../api/management-types";
import { useFormSubmission } from "../components/use-form-submission";
import { unitsPerDollar, useFormat } from "../format/use-format";

/** Adds to (or, with a negative amount, takes from) a user's wallet: typed in US dollars, sent in units. */
export function UserTopUpForm({
  user,
  onSubmit,
  onCancel,
}: {
  user: User;
  onSubmit: (delta: number, reason: string) => Promise<void>;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  const [dollars, setDollars] = useState("1");
  const { busy, send, failureAlert } = useFormSubmission((fields: { delta: number; reason: string }) =>
    onSubmit(fields.delta, fields.reason),
  );
  const units = Math.round(Number(dollars) * unitsPerDollar);
  const validUnits = Number.isFinite(units) ? units : 0;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const reason = String(new FormData(event.currentTarget).get("reason") ?? "").trim();
    await send({ delta: validUnits, reason });
  }

  return (
    <form className="stacked-form" onSubmit={submit}>
      {failureAlert}
      <p>
        {t("topUpForm.current", {
          amount: user.quota_unlimited ? t("wallet.unlimited") : format.quota(user.quota),
        })}
      </p>
      <label>
        {t("topUpForm.dollars")}
        <input
          name="dollars"
          type="number"
          step="any"
          required
          value={dollars}
          onChange={(event) => setDollars(event.target.value)}
          aria-describedby="top-up-units"
        />
      </label>
      <span id="top-up-units" className="hint">
        {format.quota(validUnits)}
      </span>
      <label>
        {t("topUpForm.reason")}
        <input name="reason" required maxLength={200} />
      </label>
      <div className="form-actions">
        <button type="submit" disabled={busy || validUnits === 0}>
          {t("topUpForm.submit")}
        </button>
        <button type="button" onClick={onCancel}>
          {t("common.cancel")}
        </button>
      </div>
    </form>
  );
}
