import type { ExpressionBuilder, Kysely, Selectable } from "kysely";
import type { Database, RedemptionCodesTable } from "../database-schema.js";
import type { PageWindow } from "../page-window.js";

export type RedemptionCodeStatus = "unused" | "redeemed" | "disabled" | "expired";

export interface RedemptionCodeRecord {
  id: number;
  name: string;
  quota: number;
  /** `expired` is an unused code past its expiry (stored as unused: the claim checks the time itself) */
  status: RedemptionCodeStatus;
  expiresTime: number;
  createdBy: number;
  createdTime: number;
  redeemedBy: number | null;
  redeemedTime: number | null;
}

export interface RedemptionCodeFilter {
  name?: string;
  status?: RedemptionCodeStatus;
}

function mapRedemptionCodeRow(row: Selectable<RedemptionCodesTable>, now: number): RedemptionCodeRecord {
  const expiresTime = Number(row.expires_time);
  const expired = row.status === "unused" && expiresTime !== -1 && expiresTime <= now;
  return {
    id: Number(row.id),
    name: row.name,
    quota: Number(row.quota),
    status: expired ? "expired" : row.status,
    expiresTime,
    createdBy: Number(row.created_by),
    createdTime: Number(row.created_time),
    redeemedBy: row.redeemed_by === null ? null : Number(row.redeemed_by),
    redeemedTime: row.redeemed_time === null ? null : Number(row.redeemed_time),
  };
}

/** Unused and still redeemable: the same test the claim makes. */
function isLive(expression: ExpressionBuilder<Database, "redemption_codes">, now: number) {
  return expression.and([
    expression("status", "=", "unused"),
    expression.or([expression("expires_time", "=", -1), expression("expires_time", ">", now)]),
  ]);
}

function matchesFilter(filter: RedemptionCodeFilter, now: number) {
  return (expression: ExpressionBuilder<Database, "redemption_codes">) => {
    const conditions = [];
    if (filter.name !== undefined) conditions.push(expression("name", "=", filter.name));
    switch (filter.status) {
      case "unused":
        conditions.push(isLive(expression, now));
        break;
      case "expired":
        conditions.push(
          expression.and([
            expression("status", "=", "unused"),
            expression("expires_time", "!=", -1),
            expression("expires_time", "<=", now),
          ]),
        );
        break;
      case "redeemed":
      case "disabled":
        conditions.push(expression("status", "=", filter.status));
        break;
      case undefined:
        break;
    }
    return expression.and(conditions);
  };
}

/** One page of codes, newest first, with the total matching the filter. */
export async function listRedemptionCodes(
  db: Kysely<Database>,
  filter: RedemptionCodeFilter,
  window: PageWindow,
  now: number,
): Promise<{ codes: RedemptionCodeRecord[]; total: number }> {
  const query = db.selectFrom("redemption_codes").where(matchesFilter(filter, now));
  const [rows, counted] = await Promise.all([
    query.selectAll().orderBy("id", "desc").limit(window.limit).offset(window.offset).execute(),
    query.select((expression) => expression.fn.countAll<number | string>().as("total")).executeTakeFirstOrThrow(),
  ]);
  return { codes: rows.map((row) => mapRedemptionCodeRow(row, now)), total: Number(counted.total) };
}

/** Every code of one batch, oldest first (the export). */
export async function listRedemptionBatch(
  db: Kysely<Database>,
  name: string,
  now: number,
): Promise<RedemptionCodeRecord[]> {
  const rows = await db.selectFrom("redemption_codes").selectAll().where("name", "=", name).orderBy("id").execute();
  return rows.map((row) => mapRedemptionCodeRow(row, now));
}

/**
 * Disables the still redeemable codes among these ids or of this batch, in one conditional update: a redemption
 * racing it on any instance either claimed the code first or finds it disabled. Answers how many it disabled.
 */
export async function disableRedemptionCodes(
  db: Kysely<Database>,
  which: { ids: readonly number[] } | { name: string },
  now: number,
): Promise<number> {
  const result = await db
    .updateTable("redemption_codes")
    .set({ status: "disabled" })
    .where((expression) =>
      expression.and([
        "ids" in which ? expression("id", "in", which.ids) : expression("name", "=", which.name),
        isLive(expression, now),
      ]),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
