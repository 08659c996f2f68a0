import type { GatewayConfig } from "../config/gateway-config.js";
import type { Logger } from "../logging/logger.js";
import type { GatewayDatabase } from "../store/gateway-database.js";
import { deleteConfigBillingGroupsExcept, upsertConfigBillingGroup } from "../store/pricing/billing-group-queries.js";
import { deleteConfigModelPricesExcept, upsertModelPrice } from "../store/pricing/model-price-queries.js";
import { toPriceFields } from "./price-fields.js";

/**
 * Makes the store's `config` prices and groups match the configuration file, as channels are synced: each entry of
 * the file is written (replacing a row of that name an administrator made, since the file is the single source of
 * truth for what it names) and `config` rows the file no longer names are removed. Rows an administrator made for
 * other names are left as they are. Runs at start, before the first read of the catalog.
 */
export async function syncConfigPrices(
  config: Pick<GatewayConfig, "pricing" | "groupRatios" | "groupDetails">,
  database: Pick<GatewayDatabase, "db">,
  logger: Logger,
  updatedTime: number,
): Promise<void> {
  const { db } = database;
  for (const [model, price] of Object.entries(config.pricing))
    await upsertModelPrice(db, { model, source: "config", price: toPriceFields(price), updatedTime });
  const groupNames = Object.keys(config.groupRatios);
  for (const [position, name] of groupNames.entries()) {
    await upsertConfigBillingGroup(db, {
      name,
      ratio: config.groupRatios[name] ?? 1,
      description: config.groupDetails[name]?.description ?? "",
      selectable: config.groupDetails[name]?.selectable ?? false,
      position,
      updatedTime,
    });
  }
  const removedPrices = await deleteConfigModelPricesExcept(db, Object.keys(config.pricing));
  const removedGroups = await deleteConfigBillingGroupsExcept(db, groupNames);
  if (removedPrices + removedGroups > 0)
    logger.info({ removedPrices, removedGroups }, "removed prices and groups no longer in the configuration file");
}
