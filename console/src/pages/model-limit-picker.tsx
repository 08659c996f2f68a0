import { useTranslation } from "react-i18next";
import type { SelfModelPrice } from "../api/management-types";
import { describeModelPrice } from "../format/describe-model-price";
import { useFormat } from "../format/use-format";

/**
 * The models a token may be limited to, picked from those its group reaches (GET /api/pricing/self), each with its
 * price in that group; `auto` reaches every group of the user. A model already on the token that the group no
 * longer reaches stays listed (and can be unticked), so saving never drops it silently. There is no text field: a
 * name the gateway does not serve cannot be typed in.
 */
export function ModelLimitPicker({
  models,
  group,
  selected,
  disabled,
  onChange,
}: {
  /** Undefined until the list arrives (or when it could not be read). */
  models: SelfModelPrice[] | undefined;
  /** The token's group by name (the user's own group resolved), or `auto`. */
  group: string;
  selected: string[];
  disabled: boolean;
  onChange: (selected: string[]) => void;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  const reachable = (models ?? []).flatMap((entry) => {
    const price = group === "auto" ? entry.groups[0] : entry.groups.find((item) => item.group === group);
    return price ? [{ model: entry.model, priced: entry.priced, price: price.price }] : [];
  });
  const unreachable = selected.filter((model) => !reachable.some((entry) => entry.model === model));
  const toggle = (model: string, checked: boolean) =>
    onChange(checked ? [...selected, model] : selected.filter((name) => name !== model));

  return (
    <fieldset className="model-picker" disabled={disabled}>
      <legend>{t("tokenForm.allowedModels")}</legend>
      {models === undefined && <p className="hint">{t("tokenForm.modelsLoading")}</p>}
      {models !== undefined && reachable.length === 0 && (
        <p className="hint">{t("tokenForm.noModelsInGroup", { group })}</p>
      )}
      <ul className="plain-list">
        {reachable.map((entry) => (
          <li key={entry.model}>
            <label className="inline">
              <input
                type="checkbox"
                checked={selected.includes(entry.model)}
                onChange={(event) => toggle(entry.model, event.target.checked)}
              />
              {entry.model}{" "}
              <span className="hint">
                {entry.priced
                  ? describeModelPrice(entry.price, t, format).join(t("tokenForm.priceSeparator"))
                  : t("tokenForm.unpriced")}
              </span>
            </label>
          </li>
        ))}
        {unreachable.map((model) => (
          <li key={model}>
            <label className="inline">
              <input type="checkbox" checked onChange={(event) => toggle(model, event.target.checked)} />
              {model} <span className="hint">{t("tokenForm.notInGroup")}</span>
            </label>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}
