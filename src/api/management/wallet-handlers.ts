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
import type { RedemptionCodeFilter } from "../../store/wallets/redemption-code-queries.js";
import {
  disableRedemptionCodes,
  exportRedemptionBatch,
  listRedemptionCodes,
} from "../../wallets/redemption-code-administration.js";
import { sendSuccess } from "./send-success.js";

type WalletOperationId =
  | "adjustUserQuota"
  | "listSelfTopUps"
  | "redeemCode"
  | "createRedemptionCodes"
  | "listSelfGroups"
  | "listRedemptionCodes"
  | "exportRedemptionCodes"
  | "disableRedemptionCodes";

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

    async listRedemptionCodes(request, response) {
      const { page, size } = readPageQuery(request);
      const query = request.query as { name?: string; status?: RedemptionCodeFilter["status"] };
      const filter: RedemptionCodeFilter = {};
      if (typeof query.name === "string") filter.name = query.name;
      if (typeof query.status === "string") filter.status = query.status;
      const { codes, total } = await listRedemptionCodes(
        context,
        getAuthenticatedUser(response),
        filter,
        toPageWindow(page, size),
      );
      sendSuccess(response, { items: codes, total, page, page_size: size });
    },

    async exportRedemptionCodes(request, response) {
      const name = String(request.query.name);
      const csv = await exportRedemptionBatch(context, getAuthenticatedUser(response), name);
      // A download named after the batch (express quotes and encodes the name safely).
      response.attachment(`redemption-codes-${name}.csv`);
      response.type("text/csv").send(csv);
    },

    async disableRedemptionCodes(request, response) {
      const body = request.body as JsonRequestBody<operations["disableRedemptionCodes"]>;
      sendSuccess(response, { disabled: await disableRedemptionCodes(context, getAuthenticatedUser(response), body) });
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
