import type { Kysely, Selectable } from "kysely";
import type { Database, ModelPricesTable } from "../database-schema.js";
import type { PriceFields } from "../../pricing/price-fields.js";

export interface ModelPriceRecord {
  model: string;
  source: "config" | "api";
  price: PriceFields;
  updatedTime: number;
}

function mapModelPriceRow(row: Selectable<ModelPricesTable>): ModelPriceRecord {
  return {
    model: row.model,
    source: row.source,
    price: JSON.parse(row.price) as PriceFields,
    updatedTime: Number(row.updated_time),
  };
}

export async function listModelPrices(db: Kysely<Database>): Promise<ModelPriceRecord[]> {
  const rows = await db.selectFrom("model_prices").selectAll().orderBy("model").execute();
  return rows.map(mapModelPriceRow);
}

export async function findModelPriceRow(db: Kysely<Database>, model: string): Promise<ModelPriceRecord | undefined> {
  const row = await db.selectFrom("model_prices").selectAll().where("model", "=", model).executeTakeFirst();
  return row ? mapModelPriceRow(row) : undefined;
}

/**
 * Creates or replaces the price of a model. `onlySource: "api"` leaves a row of the configuration file untouched
 * (and answers undefined), so an administrator's write racing a start cannot take over the file's price.
 */
export async function upsertModelPrice(
  db: Kysely<Database>,
  input: { model: string; source: "config" | "api"; price: PriceFields; updatedTime: number },
  options: { onlySource?: "api" } = {},
): Promise<ModelPriceRecord | undefined> {
  const row = await db
    .insertInto("model_prices")
    .values({
      model: input.model,
      source: input.source,
      price: JSON.stringify(input.price),
      updated_time: input.updatedTime,
    })
    .onConflict((conflict) => {
      const update = conflict.column("model").doUpdateSet((expression) => ({
        source: expression.ref("excluded.source"),
        price: expression.ref("excluded.price"),
        updated_time: expression.ref("excluded.updated_time"),
      }));
      return options.onlySource ? update.where("model_prices.source", "=", options.onlySource) : update;
    })
    .returningAll()
    .executeTakeFirst();
  return row ? mapModelPriceRow(row) : undefined;
}

/** Deletes an `api` price; answers whether a row went. */
export async function deleteApiModelPrice(db: Kysely<Database>, model: string): Promise<boolean> {
  const result = await db
    .deleteFrom("model_prices")
    .where("model", "=", model)
    .where("source", "=", "api")
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The start's sync: `config` prices of models the file no longer prices go. */
export async function deleteConfigModelPricesExcept(db: Kysely<Database>, models: readonly string[]): Promise<number> {
  let query = db.deleteFrom("model_prices").where("source", "=", "config");
  if (models.length > 0) query = query.where("model", "not in", models);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows);
}
