import type { FormEvent } from "react";
import { useTranslation } from "react-i18next";
import type { ModelPriceEntry, ModelPriceFields } from "../api/management-types";
import { useFormSubmission } from "../components/use-form-submission";

/** Every key a price may have, in the order the form shows them. */
export const priceFieldNames = [
  "input",
  "output",
  "cached_input",
  "cache_write_input",
  "audio_input",
  "audio_output",
  "image_output",
  "per_image",
  "per_second",
  "per_call",
  "max_output_tokens",
] as const satisfies readonly (keyof ModelPriceFields)[];

/** A model's price; an empty field is left out, since saving replaces the whole previous price. */
export function PriceForm({
  entry,
  onSubmit,
  onCancel,
}: {
  entry?: ModelPriceEntry;
  onSubmit: (fields: { model: string; price: ModelPriceFields }) => Promise<void>;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const { busy, send, failureAlert } = useFormSubmission(onSubmit);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? "").trim();
    const price: ModelPriceFields = {};
    for (const field of priceFieldNames) if (text(field) !== "") price[field] = Number(text(field));
    await send({ model: entry?.model ?? text("model"), price });
  }

  return (
    <form className="stacked-form" onSubmit={submit}>
      {failureAlert}
      {!entry && (
        <label>
          {t("priceForm.model")}
          <input name="model" required maxLength={200} spellCheck={false} />
        </label>
      )}
      <p className="hint">{t("priceForm.hint")}</p>
      {priceFieldNames.map((field) => (
        <label key={field}>
          {t(`prices.fields.${field}`)}
          <input
            name={field}
            type="number"
            min={0}
            step={field === "max_output_tokens" ? 1 : "any"}
            defaultValue={entry?.price[field]}
          />
        </label>
      ))}
      <div className="form-actions">
        <button type="submit" disabled={busy}>
          {t("priceForm.save")}
        </button>
        <button type="button" onClick={onCancel}>
          {t("common.cancel")}
        </button>
      </div>
    </form>
  );
}
