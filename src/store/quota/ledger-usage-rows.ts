import { type RawBuilder, sql } from "kysely";
import { parameterFrom } from "../postgres/statement-template.js";
import type { NewUsageLog } from "../usage-logs/insert-usage-logs.js";
import {
  sumUsageIntoModelRollups,
  sumUsageIntoRollups,
  toModelRollupIncrement,
  toRollupIncrement,
  type UsageModelRollupIncrement,
  type UsageRollupIncrement,
} from "../usage-logs/sum-usage-into-rollups.js";

// The usage rows a ledger statement writes with its settlements, and their rollups, in the same commit.

/**
 * The usage rows of a ledger statement and their rollups as the values of a statement template (statement-template.ts):
 * the rows, their hourly rollups and their hour and model rollups, each summed per key.
 */
export interface UsageRowsValues {
  usageRows: readonly NewUsageLog[];
  rollups: readonly UsageRollupIncrement[];
  modelRollups: readonly UsageModelRollupIncrement[];
}

export function usageRowsValues(rows: readonly NewUsageLog[]): UsageRowsValues {
  return { usageRows: rows, rollups: sumUsageIntoRollups(rows), modelRollups: sumUsageIntoModelRollups(rows) };
}

/** A lone row's values: the row and its two increments, without summing a batch. */
export function loneUsageRowValues(usageRow: NewUsageLog): UsageRowsValues {
  return {
    usageRows: [usageRow],
    rollups: [toRollupIncrement(usageRow)],
    modelRollups: [toModelRollupIncrement(usageRow)],
  };
}

/**
 * How each of the three inserts takes its rows in one statement text: `one` as `values` of plain parameters, `many` as
 * one array parameter per column unnested together. PostgreSQL parses an array parameter from text and unnests it
 * through a set-returning function, which for one row cost more than the row's insert; past one row the text and its
 * parameter count stay the same whatever the number of rows, so a text is compiled and prepared once per shape.
 */
export interface UsageRowsShape {
  usageRows: RowCount;
  rollups: RowCount;
  modelRollups: RowCount;
}
type RowCount = "one" | "many";

export function usageRowsShapeOf(values: UsageRowsValues): UsageRowsShape {
  const countOf = (rows: readonly unknown[]): RowCount => (rows.length === 1 ? "one" : "many");
  return {
    usageRows: countOf(values.usageRows),
    rollups: countOf(values.rollups),
    modelRollups: countOf(values.modelRollups),
  };
}

/** A shape as one string, to find the statement template compiled for it. */
export function usageRowsShapeKey(shape: UsageRowsShape): string {
  return `${shape.usageRows}/${shape.rollups}/${shape.modelRollups}`;
}

/**
 * The same columns and values as insert-usage-logs.ts, and the rows' two rollups upserted by the same statement
 * (more writable CTEs), so the rollups stay exactly the sum of the rows on every instance. The rows come from each
 * run's `UsageRowsValues`, in the form `shape` gives; with `onlyWhen`, they are written only if that condition holds
 * when the statement runs.
 */
export function usageRowWritesOfShape<Values extends UsageRowsValues>(
  shape: UsageRowsShape,
  onlyWhen?: RawBuilder<unknown>,
) {
  return usageRowWrites(
    rowsOf<Values, NewUsageLog>(usageLogColumns, shape.usageRows, (values) => values.usageRows, onlyWhen),
    rowsOf<Values, UsageRollupIncrement>(rollupColumns, shape.rollups, (values) => values.rollups, onlyWhen),
    rowsOf<Values, UsageModelRollupIncrement>(
      modelRollupColumns,
      shape.modelRollups,
      (values) => values.modelRollups,
      onlyWhen,
    ),
  );
}

/** A lone row's writes (its values from loneUsageRowValues). */
export const loneUsageRowShape: UsageRowsShape = { usageRows: "one", rollups: "one", modelRollups: "one" };

/** The writable CTEs of the usage rows selected by `logged` and their rollups by `rolledUp` and `modelRolledUp`. */
function usageRowWrites(
  logged: RawBuilder<unknown>,
  rolledUp: RawBuilder<unknown>,
  modelRolledUp: RawBuilder<unknown>,
) {
  return sql`logged as (insert into usage_logs (user_id, token_id, token_name, model, channel_id, request_id,
      is_stream, prompt_tokens, completion_tokens, cached_tokens, cache_write_tokens, reasoning_tokens, quota,
      latency_ms, status, error_message, created_time, group_name)
    ${logged}),
    rolled_up as (insert into usage_rollups (hour, user_id, token_id, model, channel_id, group_name, requests, errors,
      prompt_tokens, completion_tokens, cached_tokens, cache_write_tokens, quota, latency_ms)
    ${rolledUp}
    on conflict (hour, user_id, token_id, model, channel_id, group_name) do update set
      requests = usage_rollups.requests + excluded.requests, errors = usage_rollups.errors + excluded.errors,
      prompt_tokens = usage_rollups.prompt_tokens + excluded.prompt_tokens,
      completion_tokens = usage_rollups.completion_tokens + excluded.completion_tokens,
      cached_tokens = usage_rollups.cached_tokens + excluded.cached_tokens,
      cache_write_tokens = usage_rollups.cache_write_tokens + excluded.cache_write_tokens,
      quota = usage_rollups.quota + excluded.quota, latency_ms = usage_rollups.latency_ms + excluded.latency_ms),
    model_rolled_up as (insert into usage_model_rollups (hour, model, requests, errors, prompt_tokens,
      completion_tokens, cached_tokens, cache_write_tokens, quota, latency_ms)
    ${modelRolledUp}
    on conflict (hour, model) do update set
      requests = usage_model_rollups.requests + excluded.requests,
      errors = usage_model_rollups.errors + excluded.errors,
      prompt_tokens = usage_model_rollups.prompt_tokens + excluded.prompt_tokens,
      completion_tokens = usage_model_rollups.completion_tokens + excluded.completion_tokens,
      cached_tokens = usage_model_rollups.cached_tokens + excluded.cached_tokens,
      cache_write_tokens = usage_model_rollups.cache_write_tokens + excluded.cache_write_tokens,
      quota = usage_model_rollups.quota + excluded.quota,
      latency_ms = usage_model_rollups.latency_ms + excluded.latency_ms)`;
}

type ColumnType = "bigint" | "integer" | "text";
type Column<Row> = readonly [(row: Row) => unknown, ColumnType];

// Each insert's columns in the order its SQL names them, read from the rows the statement writes.
const usageLogColumns: readonly Column<NewUsageLog>[] = [
  [(row) => row.userId, "bigint"],
  [(row) => row.tokenId, "bigint"],
  [(row) => row.tokenName, "text"],
  [(row) => row.model, "text"],
  [(row) => row.channelId, "bigint"],
  [(row) => row.requestId, "text"],
  [(row) => (row.isStream ? 1 : 0), "integer"],
  [(row) => row.promptTokens, "bigint"],
  [(row) => row.completionTokens, "bigint"],
  [(row) => row.cachedTokens, "bigint"],
  [(row) => row.cacheWriteTokens, "bigint"],
  [(row) => row.reasoningTokens, "bigint"],
  [(row) => row.quota, "bigint"],
  [(row) => row.latencyMs, "bigint"],
  [(row) => row.status, "text"],
  [(row) => row.errorMessage, "text"],
  [(row) => row.createdTime, "bigint"],
  [(row) => row.group, "text"],
];
// What both rollups count, after their keys.
const rollupCountColumns: readonly Column<UsageModelRollupIncrement>[] = [
  [(rollup) => rollup.requests, "bigint"],
  [(rollup) => rollup.errors, "bigint"],
  [(rollup) => rollup.prompt_tokens, "bigint"],
  [(rollup) => rollup.completion_tokens, "bigint"],
  [(rollup) => rollup.cached_tokens, "bigint"],
  [(rollup) => rollup.cache_write_tokens, "bigint"],
  [(rollup) => rollup.quota, "bigint"],
  [(rollup) => rollup.latency_ms, "bigint"],
];
const rollupColumns: readonly Column<UsageRollupIncrement>[] = [
  [(rollup) => rollup.hour, "bigint"],
  [(rollup) => rollup.user_id, "bigint"],
  [(rollup) => rollup.token_id, "bigint"],
  [(rollup) => rollup.model, "text"],
  [(rollup) => rollup.channel_id, "bigint"],
  [(rollup) => rollup.group_name, "text"],
  ...rollupCountColumns,
];
const modelRollupColumns: readonly Column<UsageModelRollupIncrement>[] = [
  [(rollup) => rollup.hour, "bigint"],
  [(rollup) => rollup.model, "text"],
  ...rollupCountColumns,
];

/**
 * The rows of an insert, column by column, read from each run's values by `rowsIn`, as `count` says; with `onlyWhen`,
 * selected only if that condition holds.
 */
function rowsOf<Values, Row>(
  columns: readonly Column<Row>[],
  count: RowCount,
  rowsIn: (values: Values) => readonly Row[],
  onlyWhen: RawBuilder<unknown> | undefined,
) {
  const cells = columns.map(([read, type]) =>
    count === "one"
      ? sql`${parameterFrom<Values>((values) => read(rowsIn(values)[0]!))}::${sql.raw(type)}`
      : sql`${parameterFrom<Values>((values) => rowsIn(values).map(read))}::${sql.raw(`${type}[]`)}`,
  );
  const source = count === "one" ? sql`(values (${sql.join(cells)}))` : sql`unnest(${sql.join(cells)})`;
  return onlyWhen === undefined
    ? sql`select * from ${source} as row_values`
    : sql`select * from ${source} as row_values where ${onlyWhen}`;
}
