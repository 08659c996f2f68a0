import type { components } from "../../../generated/types/management.js";
import { assertAdministrator } from "../../channels/assert-administrator.js";
import type { GatewayContext } from "../../gateway-context.js";
import type { OperationHandler } from "../../http/operation-handler.js";
import { type AuditFilter, listAuditRows } from "../../store/audit/list-audit-rows.js";
import { toPageWindow } from "../../tokens/to-page-window.js";
import { getAuthenticatedUser } from "../../users/authenticated-request.js";
import { readPageQuery } from "./read-page-query.js";
import { sendSuccess } from "./send-success.js";

/** GET /api/audit: administrators read who changed users, wallets, codes and channels. */
export function createAuditHandlers(context: GatewayContext): Record<"listAuditLog", OperationHandler> {
  return {
    async listAuditLog(request, response) {
      assertAdministrator(getAuthenticatedUser(response));
      const { page, size } = readPageQuery(request);
      const query = request.query as { action?: string; actor_user_id?: string | number };
      const filter: AuditFilter = {};
      if (typeof query.action === "string") filter.action = query.action;
      if (query.actor_user_id !== undefined) filter.actorUserId = Number(query.actor_user_id);
      const { rows, total } = await listAuditRows(context.database.db, filter, toPageWindow(page, size));
      const items = rows.map((row): components["schemas"]["AuditEntry"] => ({
        id: row.id,
        actor_user_id: row.actorUserId,
        action: row.action,
        target: row.target,
        before: row.before,
        after: row.after,
        created_time: row.createdTime,
      }));
      sendSuccess(response, { items, total, page, page_size: size });
    },
  };
}
