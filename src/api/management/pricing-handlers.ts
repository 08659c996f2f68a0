import type { operations } from "../../../generated/types/management.js";
import { assertAdministrator } from "../../channels/assert-administrator.js";
import type { GatewayContext } from "../../gateway-context.js";
import type { OperationHandler } from "../../http/operation-handler.js";
import type { JsonRequestBody } from "../../http/operation-types.js";
import { readPathParameter } from "../../http/read-path-parameter.js";
import { listSelfModelPrices } from "../../pricing/list-self-model-prices.js";
import {
  createGroup,
  deleteGroup,
  deleteModelPrice,
  setModelPrice,
  toGroupView,
  toModelPriceEntry,
  updateGroup,
} from "../../pricing/price-operations.js";
import { listBillingGroups } from "../../store/pricing/billing-group-queries.js";
import { listModelPrices } from "../../store/pricing/model-price-queries.js";
import { getAuthenticatedUser } from "../../users/authenticated-request.js";
import { sendSuccess } from "./send-success.js";

type PricingOperationId =
  | "listModelPrices"
  | "listSelfModelPrices"
  | "setModelPrice"
  | "deleteModelPrice"
  | "listGroups"
  | "createGroup"
  | "updateGroup"
  | "deleteGroup";

/** /api/pricing and /api/group: prices and groups as data, managed by administrators, read by every user. */
export function createPricingHandlers(context: GatewayContext): Record<PricingOperationId, OperationHandler> {
  const { db } = context.database;
  return {
    async listModelPrices(_request, response) {
      assertAdministrator(getAuthenticatedUser(response));
      const prices = await listModelPrices(db);
      sendSuccess(response, { items: prices.map(toModelPriceEntry), allow_unpriced: context.config.allowUnpriced });
    },
    listSelfModelPrices(_request, response) {
      sendSuccess(response, { items: listSelfModelPrices(context, getAuthenticatedUser(response)) });
    },
    async setModelPrice(request, response) {
      const body = request.body as JsonRequestBody<operations["setModelPrice"]>;
      const model = readPathParameter(request, "model");
      sendSuccess(response, await setModelPrice(context, getAuthenticatedUser(response), model, body));
    },
    async deleteModelPrice(request, response) {
      await deleteModelPrice(context, getAuthenticatedUser(response), readPathParameter(request, "model"));
      sendSuccess(response);
    },
    async listGroups(_request, response) {
      assertAdministrator(getAuthenticatedUser(response));
      const groups = await listBillingGroups(db);
      sendSuccess(response, { items: groups.map(toGroupView), auto_groups: context.config.autoGroups });
    },
    async createGroup(request, response) {
      const body = request.body as JsonRequestBody<operations["createGroup"]>;
      sendSuccess(response, await createGroup(context, getAuthenticatedUser(response), body));
    },
    async updateGroup(request, response) {
      const body = request.body as JsonRequestBody<operations["updateGroup"]>;
      const name = readPathParameter(request, "name");
      sendSuccess(response, await updateGroup(context, getAuthenticatedUser(response), name, body));
    },
    async deleteGroup(request, response) {
      await deleteGroup(context, getAuthenticatedUser(response), readPathParameter(request, "name"));
      sendSuccess(response);
    },
  };
}
