import { type Kysely, sql } from "kysely";
import type { Database } from "../database-schema.js";
import { createStatementTemplate, parameterFrom, type StatementTemplate } from "../postgres/statement-template.js";
import {
  type UsageRowsShape,
  type UsageRowsValues,
  usageRowsShapeOf,
  usageRowsValues,
  usageRowWritesOfShape,
} from "./ledger-usage-rows.js";
import type { PostgresReserveInput, PostgresSettleInput } from "./postgres-ledger-items.js";
import type { ReserveOutcome } from "./reserve-outcome.js";

/**
 * A batch of more than one item as one call of `run_ledger_cycle` (migration 0014), with its settlements' usage rows
 * and their rollups written by the same statement. Answers, in order, whether each settlement was applied and each
 * hold's outcome.
 */
export interface LedgerCycleStatements {
  run(
    settlements: readonly PostgresSettleInput[],
    holds: readonly PostgresReserveInput[],
    now: number,
  ): Promise<LedgerCycleAnswers>;
}

export interface LedgerCycleAnswers {
  settled: boolean[];
  held: (ReserveOutcome | "duplicate")[];
}

interface CycleValues extends UsageRowsValues {
  settlements: readonly PostgresSettleInput[];
  holds: readonly PostgresReserveInput[];
  now: number;
}

/** The functions' answer; an empty array comes back as '{}' or, from their accumulators, as null. */
type CycleRow = { settled: boolean[] | null; held: (ReserveOutcome | "duplicate")[] | null };

/**
 * The statement's text depends only on its shape: holds alone, settlements with no usage row, or settlements with
 * rows each insert takes as one row or as arrays (ledger-usage-rows.ts). So each shape is a statement template
 * (statement-template.ts), built and compiled on its first batch, at most ten in all: building and compiling the
 * batch's statement afresh cost the gateway 110–190 µs a batch (bench/profile-findings.md, "Batch statements
 * compiled once"), which two instances on one key pay twice as often, their batches half as large.
 */
export function createLedgerCycleStatements(db: Kysely<Database>): LedgerCycleStatements {
  const templates = new Map<string, StatementTemplate<CycleValues, CycleRow>>();
  const noRows: UsageRowsValues = { usageRows: [], rollups: [], modelRollups: [] };
  return {
    async run(settlements, holds, now) {
      const rows = settlements.flatMap((item) => (item.usageRow ? [item.usageRow] : []));
      const values: CycleValues = { settlements, holds, now, ...(rows.length === 0 ? noRows : usageRowsValues(rows)) };
      const shape: CycleShape =
        settlements.length === 0 ? "holds" : rows.length === 0 ? "settlements" : usageRowsShapeOf(values);
      const key = typeof shape === "string" ? shape : `${shape.usageRows}/${shape.rollups}/${shape.modelRollups}`;
      let template = templates.get(key);
      if (template === undefined) {
        template = createStatementTemplate(db, cycleStatement(shape));
        templates.set(key, template);
      }
      const result = await template.execute(values);
      return { settled: result.rows[0]!.settled ?? [], held: result.rows[0]!.held ?? [] };
    },
  };
}

/** Holds alone, settlements without usage rows, or settlements with rows of that shape. */
type CycleShape = "holds" | "settlements" | UsageRowsShape;

function cycleStatement(shape: CycleShape) {
  const settled = (read: (item: PostgresSettleInput) => unknown) =>
    parameterFrom<CycleValues>((values) => values.settlements.map(read));
  const held = (read: (item: PostgresReserveInput) => unknown) =>
    parameterFrom<CycleValues>((values) => values.holds.map(read));
  const now = parameterFrom<CycleValues>((values) => values.now);
  const cycle = sql`run_ledger_cycle(
      ${settled((item) => item.reservationId)}::text[],
      ${settled((item) => item.tokenId)}::bigint[],
      ${settled((item) => item.userId)}::bigint[],
      ${settled((item) => item.actual)}::bigint[],
      ${held((item) => item.requestId)}::text[],
      ${held((item) => item.tokenId)}::bigint[],
      ${held((item) => item.userId)}::bigint[],
      ${held((item) => item.amount)}::bigint[],
      ${held((item) => (item.tokenLimited ? 1 : 0))}::integer[],
      ${shape === "holds" ? commitsWithoutFlushWait(now) : sql`${now}::bigint`})`;
  if (typeof shape === "string") return sql<CycleRow>`select * from ${cycle}`;
  return sql<CycleRow>`
      with ${usageRowWritesOfShape<CycleValues>(shape)}
      select * from ${cycle}`;
}

/**
 * The time argument of a batch of holds only, which also makes that batch's commit return without waiting for its WAL
 * flush (`synchronous_commit` off for this transaction alone; the argument is evaluated before the function runs,
 * and the setting is read at commit). That wait was a quarter of a millisecond of every request on one connection
 * and, on a hot key, of each batch's hold of the token's row lock. Nothing answered depends on a hold being durable:
 * the settlement that follows it commits synchronously, and PostgreSQL flushes the log in order, so a flushed
 * settlement has its hold flushed before it. A database crash can lose only holds whose requests have not settled,
 * each with its balance change, in the caller's favour, as a lost commit window on SQLite.
 */
function commitsWithoutFlushWait(now: unknown) {
  return sql`(select ${now}::bigint from set_config('synchronous_commit', 'off', true))`;
}
