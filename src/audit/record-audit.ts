import type { GatewayContext } from "../gateway-context.js";
import { insertAuditRow } from "../store/audit/insert-audit-row.js";
import type { UserRecord } from "../store/users/user-record.js";

/**
 * Writes the audit row of one administrative change, after the change succeeded. `before` and `after` are the views
 * the API answers with (keys masked, no password or access token), never stored records.
 */
export async function recordAudit(
  context: Pick<GatewayContext, "database" | "now">,
  actor: UserRecord | "cli",
  change: { action: string; target: string; before?: unknown; after?: unknown },
): Promise<void> {
  await insertAuditRow(context.database.db, {
    actorUserId: actor === "cli" ? null : actor.id,
    action: change.action,
    target: change.target,
    ...(change.before === undefined ? {} : { before: change.before }),
    ...(change.after === undefined ? {} : { after: change.after }),
    createdTime: context.now(),
  });
}
