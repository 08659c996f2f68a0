import type { Kysely, Selectable } from "kysely";
import type { BillingGroupsTable, Database } from "../database-schema.js";

export interface BillingGroupRecord {
  name: string;
  source: "config" | "api";
  ratio: number;
  description: string;
  selectable: boolean;
  position: number;
  updatedTime: number;
}

export interface BillingGroupPatch {
  ratio?: number;
  description?: string;
  selectable?: boolean;
}

function mapBillingGroupRow(row: Selectable<BillingGroupsTable>): BillingGroupRecord {
  return {
    name: row.name,
    source: row.source,
    ratio: Number(row.ratio),
    description: row.description,
    selectable: row.selectable === 1,
    position: Number(row.position),
    updatedTime: Number(row.updated_time),
  };
}

/** Every group in the configured order (the file's first, then those made through the API, oldest first). */
export async function listBillingGroups(db: Kysely<Database>): Promise<BillingGroupRecord[]> {
  const rows = await db.selectFrom("billing_groups").selectAll().orderBy("position").orderBy("name").execute();
  return rows.map(mapBillingGroupRow);
}

export async function findBillingGroup(db: Kysely<Database>, name: string): Promise<BillingGroupRecord | undefined> {
  const row = await db.selectFrom("billing_groups").selectAll().where("name", "=", name).executeTakeFirst();
  return row ? mapBillingGroupRow(row) : undefined;
}

/** The start's sync: the file's group at its place in the file, replacing any row of that name. */
export async function upsertConfigBillingGroup(
  db: Kysely<Database>,
  input: Omit<BillingGroupRecord, "source">,
): Promise<void> {
  await db
    .insertInto("billing_groups")
    .values({
      name: input.name,
      source: "config",
      ratio: input.ratio,
      description: input.description,
      selectable: input.selectable ? 1 : 0,
      position: input.position,
      updated_time: input.updatedTime,
    })
    .onConflict((conflict) =>
      conflict.column("name").doUpdateSet((expression) => ({
        source: expression.ref("excluded.source"),
        ratio: expression.ref("excluded.ratio"),
        description: expression.ref("excluded.description"),
        selectable: expression.ref("excluded.selectable"),
        position: expression.ref("excluded.position"),
        updated_time: expression.ref("excluded.updated_time"),
      })),
    )
    .execute();
}

/**
 * An administrator's new group, placed after every existing one. Undefined when the name is taken (by the file's
 * groups or an earlier create).
 */
export async function insertApiBillingGroup(
  db: Kysely<Database>,
  input: { name: string; ratio: number; description: string; selectable: boolean; updatedTime: number },
): Promise<BillingGroupRecord | undefined> {
  const last = await db
    .selectFrom("billing_groups")
    .select((expression) => expression.fn.max("position").as("position"))
    .executeTakeFirst();
  const row = await db
    .insertInto("billing_groups")
    .values({
      name: input.name,
      source: "api",
      ratio: input.ratio,
      description: input.description,
      selectable: input.selectable ? 1 : 0,
      position: Number(last?.position ?? 0) + 1,
      updated_time: input.updatedTime,
    })
    .onConflict((conflict) => conflict.column("name").doNothing())
    .returningAll()
    .executeTakeFirst();
  return row ? mapBillingGroupRow(row) : undefined;
}

/** Changes an `api` group; undefined when there is none of this name (or it is the file's). */
export async function updateApiBillingGroup(
  db: Kysely<Database>,
  name: string,
  patch: BillingGroupPatch,
  updatedTime: number,
): Promise<BillingGroupRecord | undefined> {
  const row = await db
    .updateTable("billing_groups")
    .set({
      ...(patch.ratio === undefined ? {} : { ratio: patch.ratio }),
      ...(patch.description === undefined ? {} : { description: patch.description }),
      ...(patch.selectable === undefined ? {} : { selectable: patch.selectable ? 1 : 0 }),
      updated_time: updatedTime,
    })
    .where("name", "=", name)
    .where("source", "=", "api")
    .returningAll()
    .executeTakeFirst();
  return row ? mapBillingGroupRow(row) : undefined;
}

/** Deletes an `api` group; answers whether a row went. */
export async function deleteApiBillingGroup(db: Kysely<Database>, name: string): Promise<boolean> {
  const result = await db
    .deleteFrom("billing_groups")
    .where("name", "=", name)
    .where("source", "=", "api")
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The start's sync: `config` groups the file no longer names go. */
export async function deleteConfigBillingGroupsExcept(db: Kysely<Database>, names: readonly string[]): Promise<number> {
  let query = db.deleteFrom("billing_groups").where("source", "=", "config");
  if (names.length > 0) query = query.where("name", "not in", names);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows);
}
