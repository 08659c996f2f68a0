import type { operations } from "../../../generated/types/management.js";
import { resolveClientIp } from "../../auth/ip/resolve-client-ip.js";
import type { GatewayContext } from "../../gateway-context.js";
import { readRequestIds } from "../../http/read-request-ids.js";
import type { OperationHandler } from "../../http/operation-handler.js";
import type { JsonRequestBody } from "../../http/operation-types.js";
import { getAuthenticatedUser } from "../../users/authenticated-request.js";
import { createUserAccount } from "../../users/create-user-account.js";
import { loginUser } from "../../users/login-user.js";
import { toUserView } from "../../users/to-user-view.js";
import { updateUserAccount } from "../../users/update-user-account.js";
import { deleteUserAccount, resetUserPassword, updateOwnAccount } from "../../users/manage-user-account.js";
import { readPathParameter } from "../../http/read-path-parameter.js";
import { sendSuccess } from "./send-success.js";
import { readPageQuery } from "./read-page-query.js";
import { assertAdministrator } from "../../channels/assert-administrator.js";
import { listUsers } from "../../store/users/list-users.js";
import { toPageWindow } from "../../tokens/to-page-window.js";

export function createUserHandlers(
  context: GatewayContext,
): Record<
  | "loginUser"
  | "getSelf"
  | "updateSelf"
  | "createUser"
  | "updateUser"
  | "deleteUser"
  | "resetUserPassword"
  | "listUsers",
  OperationHandler
> {
  return {
    async loginUser(request, response) {
      const body = request.body as JsonRequestBody<operations["loginUser"]>;
      const address = resolveClientIp(
        request.socket.remoteAddress ?? "",
        request.headers["x-forwarded-for"] as string | undefined,
        context.trustedProxies,
      );
      const { user, accessToken } = await loginUser(context, body, {
        address,
        requestId: readRequestIds(request).requestId,
      });
      response.setHeader("Cache-Control", "no-store");
      sendSuccess(response, { ...toUserView(user), access_token: accessToken });
    },
    getSelf(_request, response) {
      sendSuccess(response, toUserView(getAuthenticatedUser(response)));
    },
    async updateSelf(request, response) {
      const body = request.body as JsonRequestBody<operations["updateSelf"]>;
      const address = resolveClientIp(
        request.socket.remoteAddress ?? "",
        request.headers["x-forwarded-for"] as string | undefined,
        context.trustedProxies,
      );
      sendSuccess(
        response,
        toUserView(await updateOwnAccount(context, getAuthenticatedUser(response), body, { address })),
      );
    },
    async deleteUser(request, response) {
      await deleteUserAccount(context, getAuthenticatedUser(response), Number(readPathParameter(request, "id")));
      sendSuccess(response);
    },
    async resetUserPassword(request, response) {
      const body = request.body as JsonRequestBody<operations["resetUserPassword"]>;
      const userId = Number(readPathParameter(request, "id"));
      await resetUserPassword(context, getAuthenticatedUser(response), userId, body.password);
      sendSuccess(response);
    },
    async listUsers(request, response) {
      assertAdministrator(getAuthenticatedUser(response));
      const { page, size } = readPageQuery(request);
      const keyword = typeof request.query.keyword === "string" ? request.query.keyword : undefined;
      const { users, total } = await listUsers(context.database.db, keyword, toPageWindow(page, size));
      sendSuccess(response, { items: users.map(toUserView), total, page, page_size: size });
    },
    async updateUser(request, response) {
      const body = request.body as JsonRequestBody<operations["updateUser"]>;
      const userId = Number(readPathParameter(request, "id"));
      sendSuccess(response, toUserView(await updateUserAccount(context, getAuthenticatedUser(response), userId, body)));
    },
    async createUser(request, response) {
      const body = request.body as JsonRequestBody<operations["createUser"]>;
      sendSuccess(
        response,
        toUserView(
          await createUserAccount(context, getAuthenticatedUser(response), body, context.config.usersInitialQuota),
        ),
      );
    },
  };
}
