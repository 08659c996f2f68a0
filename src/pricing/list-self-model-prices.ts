import type { components } from "../../generated/types/management.js";
import type { GatewayContext } from "../gateway-context.js";
import { findModelPrice } from "../models/find-model-price.js";
import { type GroupUser, listUsableGroups } from "../users/usable-groups.js";
import { applyGroupRatio, toPriceFields } from "./price-fields.js";

type SelfModelPrice = components["schemas"]["SelfModelPrice"];

/**
 * GET /api/pricing/self: every model a channel of one of the user's groups serves, with what it costs in each of
 * those groups (the group's ratio applied), the groups in the user's order.
 */
export function listSelfModelPrices(
  context: Pick<GatewayContext, "config" | "channelRouter">,
  user: GroupUser,
): SelfModelPrice[] {
  const { config, channelRouter } = context;
  const byModel = new Map<string, SelfModelPrice>();
  for (const group of listUsableGroups(user, config)) {
    const ratio = config.groupRatios[group] ?? 1;
    for (const model of channelRouter.listModels({ group, crossGroupRetry: false }, group)) {
      const price = findModelPrice(config.pricing, model);
      let entry = byModel.get(model);
      if (!entry) {
        entry = { model, priced: price !== undefined, groups: [] };
        byModel.set(model, entry);
      }
      entry.groups.push({ group, ratio, price: price ? applyGroupRatio(toPriceFields(price), ratio) : {} });
    }
  }
  return [...byModel.values()].sort((left, right) =>
    left.model < right.model ? -1 : left.model > right.model ? 1 : 0,
  );
}
