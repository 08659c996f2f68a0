import type { GatewayConfig, ModelPrice } from "../config/gateway-config.js";
import type { GatewayDatabase } from "../store/gateway-database.js";
import { listBillingGroups } from "../store/pricing/billing-group-queries.js";
import { listModelPrices } from "../store/pricing/model-price-queries.js";
import { toModelPrice } from "./price-fields.js";

/**
 * The prices and groups this instance bills and routes with. They live in the store; the instance keeps a copy in
 * the live fields of its own configuration object (`pricing`, `groupRatios`, `groupDetails`, `autoGroups`), which
 * every reader already takes at the moment it prices or routes a request, so a reload is seen by the next request.
 */
export interface PriceCatalog {
  /** Re-reads prices and groups from the store (at start, after a change here, when another instance announces one). */
  reload(): Promise<void>;
}

type LiveFields = "pricing" | "groupRatios" | "groupDetails" | "autoGroups" | "autoGroupsListed";

export function createPriceCatalog(
  config: Pick<GatewayConfig, LiveFields>,
  database: Pick<GatewayDatabase, "db">,
): PriceCatalog {
  // The file's auto_groups, when it names them, stay the order of `auto`; otherwise every group, in order.
  const listedAutoGroups = config.autoGroupsListed ? [...config.autoGroups] : undefined;
  let reloading: Promise<void> = Promise.resolve();

  async function read(): Promise<void> {
    const [prices, groups] = await Promise.all([listModelPrices(database.db), listBillingGroups(database.db)]);
    const pricing: Record<string, ModelPrice> = {};
    for (const entry of prices) pricing[entry.model] = toModelPrice(entry.price);
    const groupRatios: Record<string, number> = {};
    const groupDetails: GatewayConfig["groupDetails"] = {};
    for (const group of groups) {
      groupRatios[group.name] = group.ratio;
      groupDetails[group.name] = { description: group.description, selectable: group.selectable };
    }
    // Replaced whole, never edited in place: a request that already took the old maps finishes with them.
    config.pricing = pricing;
    config.groupRatios = groupRatios;
    config.groupDetails = groupDetails;
    config.autoGroups = listedAutoGroups ?? groups.map((group) => group.name);
  }

  return {
    reload() {
      // Serialised: an older read finishing last must not overwrite a newer one.
      const next = reloading.then(read);
      reloading = next.catch(() => undefined);
      return next;
    },
  };
}
