import type { TFunction } from "i18next";
import type { ModelPriceFields } from "../api/management-types";
import { priceFieldNames } from "../pages/price-form";
import type { Format } from "./use-format";

/** The keys a price sets, each with its value (dollars, or a token count for the output reservation). */
export function describeModelPrice(price: ModelPriceFields, t: TFunction, format: Format): string[] {
  const parts = priceFieldNames.flatMap((field) => {
    const value = price[field];
    if (value === undefined) return [];
    const shown = field === "max_output_tokens" ? format.number(value) : format.dollars(value);
    return [t("prices.fieldValue", { field: t(`prices.fields.${field}`), value: shown })];
  });
  return parts.length > 0 ? parts : [t("pricing.free")];
}
