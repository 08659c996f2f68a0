import type { components, operations } from "../../../generated/types/management.js";
import type { GatewayContext } from "../../gateway-context.js";
import type { OperationHandler } from "../../http/operation-handler.js";
import type { JsonRequestBody } from "../../http/operation-types.js";
import { readPathParameter } from "../../http/read-path-parameter.js";
import { listQuotaChangesForUser } from "../../store/wallets/list-quota-changes-for-user.js";
import type { QuotaChangeRecord } from "../../store/wallets/quota-change-record.js";
import { toPageWindow } from "../../tokens/to-page-window.js";
import { getAuthenticatedUser } from "../../users/authenticated-request.js";
import { listUsableGroups, autoGroupsFor } from "../../users/usable-groups.js";
import { adjustUserQuota, createRedemptionCodes, redeemCode } from "../../wallets/wallet-operations.js";
import { readPageQuery } from "./read-page-query.js";
import { sendSuccess } from "./send-success.js";

type WalletOperationId =
  | "adjustUserQuota"
  | "listSelfTopUps"
  | "redeemCode"
  | "createRedemptionCodes"
  | "listSelfGroups";

export function createWalletHandlers(context: GatewayContext): Record<WalletOperationId, OperationHandler> {
  return {
    async adjustUserQuota(request, response) {
      const body = request.body as JsonRequestBody<operations["adjustUserQuota"]>;
      const userId = Number(readPathParameter(request, "id"));
      sendSuccess(
        response,
        toQuotaChangeView(await adjustUserQuota(context, getAuthenticatedUser(response), userId, body)),
      );
    },

    async listSelfTopUps(request, response) {
      const { page, size } = readPageQuery(request);
      const { changes, total } = await listQuotaChangesForUser(
        context.database.db,
        getAuthenticatedUser(response).id,
        toPageWindow(page, size),
      );
      sendSuccess(response, { items: changes.map(toQuotaChangeView), total, page, page_size: size });
    },

    async redeemCode(request, response) {
      const body = request.body as JsonRequestBody<operations["redeemCode"]>;
      sendSuccess(response, toQuotaChangeView(await redeemCode(context, getAuthenticatedUser(response), body.code)));
    },

    async createRedemptionCodes(request, response) {
      const body = request.body as JsonRequestBody<operations["createRedemptionCodes"]>;
      const codes = await createRedemptionCodes(context, getAuthenticatedUser(response), body);
      response.setHeader("Cache-Control", "no-store");
      sendSuccess(response, { codes });
    },

    listSelfGroups(_request, response) {
      const user = getAuthenticatedUser(response);
      const { groupRatios, groupDetails } = context.config;
      const items = listUsableGroups(user, context.config).map((name): components["schemas"]["UsableGroup"] => ({
        name,
        ratio: groupRatios[name] ?? 1,
        description: groupDetails[name]?.description ?? "",
        is_default: name === user.group,
      }));
      sendSuccess(response, { items, auto_groups: autoGroupsFor(user, context.config) });
    },
  };
}

function toQuotaChangeView(change: QuotaChangeRecord): components["schemas"]["QuotaChange"] {
  return {
    id: change.id,
    delta: change.delta,
    balance_after: change.balanceAfter,
    source: change.source,
    reason: change.reason,
    created_time: change.createdTime,
  };
}
