import { stringify } from "csv-stringify/sync";
import type { components } from "../../generated/types/management.js";
import { recordAudit } from "../audit/record-audit.js";
import { assertAdministrator } from "../channels/assert-administrator.js";
import type { GatewayContext } from "../gateway-context.js";
import type { PageWindow } from "../store/page-window.js";
import {
  disableRedemptionCodes as disableStoredCodes,
  listRedemptionBatch,
  listRedemptionCodes as listStoredCodes,
  type RedemptionCodeFilter,
  type RedemptionCodeRecord,
} from "../store/wallets/redemption-code-queries.js";
import type { UserRecord } from "../store/users/user-record.js";

type RedemptionCodeView = components["schemas"]["RedemptionCode"];
type DisableRedemptionCodesRequest = components["schemas"]["DisableRedemptionCodesRequest"];
type CodesContext = Pick<GatewayContext, "database" | "now">;

const csvColumns = [
  "id",
  "name",
  "quota",
  "status",
  "expires_time",
  "created_by",
  "created_time",
  "redeemed_by",
  "redeemed_time",
] as const satisfies ReadonlyArray<keyof RedemptionCodeView>;

export function toRedemptionCodeView(code: RedemptionCodeRecord): RedemptionCodeView {
  return {
    id: code.id,
    name: code.name,
    quota: code.quota,
    status: code.status,
    expires_time: code.expiresTime,
    created_by: code.createdBy,
    created_time: code.createdTime,
    redeemed_by: code.redeemedBy,
    redeemed_time: code.redeemedTime,
  };
}

/** GET /api/redemption/: administrators page through codes, of one batch or status. */
export async function listRedemptionCodes(
  context: CodesContext,
  actor: UserRecord,
  filter: RedemptionCodeFilter,
  window: PageWindow,
): Promise<{ codes: RedemptionCodeView[]; total: number }> {
  assertAdministrator(actor);
  const { codes, total } = await listStoredCodes(context.database.db, filter, window, context.now());
  return { codes: codes.map(toRedemptionCodeView), total };
}

/**
 * GET /api/redemption/export: one batch as CSV. A batch name that starts like a spreadsheet formula is written with
 * a leading apostrophe, so opening the file never runs it.
 */
export async function exportRedemptionBatch(context: CodesContext, actor: UserRecord, name: string): Promise<string> {
  assertAdministrator(actor);
  const codes = await listRedemptionBatch(context.database.db, name, context.now());
  const rows = codes.map((code) => {
    const view = toRedemptionCodeView(code);
    return csvColumns.map((column) => (column === "name" ? neutralizeFormula(view.name) : view[column]));
  });
  return stringify([[...csvColumns], ...rows]);
}

function neutralizeFormula(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/** POST /api/redemption/disable: the still redeemable codes among these ids, or of this batch. */
export async function disableRedemptionCodes(
  context: CodesContext,
  actor: UserRecord,
  request: DisableRedemptionCodesRequest,
): Promise<number> {
  assertAdministrator(actor);
  const which = request.ids ? { ids: request.ids } : { name: request.name ?? "" };
  const disabled = await disableStoredCodes(context.database.db, which, context.now());
  await recordAudit(context, actor, {
    action: "redemption.disable",
    target: request.ids ? `redemption:${request.ids.join(",")}` : `redemption:${request.name}`,
    after: { ...which, disabled },
  });
  return disabled;
}
