import { type Kysely, sql } from "kysely";
import type { Database } from "../database-schema.js";
import { createStatementTemplate, parameterFrom, type StatementTemplate } from "../postgres/statement-template.js";
import {
  type UsageRowsShape,
  type UsageRowsValues,
  usageRowsShapeKey,
  usageRowsShapeOf,
  usageRowsValues,
  usageRowWritesOfShape,
} from "./ledger-usage-rows.js";
import { deferredHoldNotTakenCode } from "../migrations/create-deferred-holds-in-batches-migration.js";
import type { NewUsageLog } from "../usage-logs/insert-usage-logs.js";
import {
  createDeferredCycleStatement,
  type DeferredCycleStatement,
  type DeferredHold,
  reservationIdConstraint,
} from "./deferred-cycle-statement.js";
import { type BalancesSeen, balancesPerHold } from "./lone-ledger-statements.js";
import type { PostgresReserveInput, PostgresSettleInput } from "./postgres-ledger-items.js";
import type { ReserveOutcome } from "./reserve-outcome.js";

/**
 * A batch of more than one item as one call of `run_ledger_cycle` (migrations 0021 and 0022), with the usage rows of
 * its settlements and of its deferred holds, and their rollups, written by the same statement. Answers, in order, whether
 * each settlement was applied, each hold's outcome and the balances each hold's token and wallet had after the cycle.
 * A deferred hold that was not taken rolls the whole statement back with `DeferredHoldNotTakenError`.
 */
export interface LedgerCycleStatements {
  run(
    settlements: readonly PostgresSettleInput[],
    holds: readonly LedgerCycleHold[],
    now: number,
  ): Promise<LedgerCycleAnswers>;
}

/** A hold of the batch; a deferred one carries its settlement, applied in the same cycle once the hold is taken. */
export interface LedgerCycleHold {
  input: PostgresReserveInput;
  settlement?: Pick<PostgresSettleInput, "actual" | "usageRow">;
}

export interface LedgerCycleAnswers {
  settled: boolean[];
  held: (ReserveOutcome | "duplicate")[];
  /** Per hold: its token's and its wallet's balances after the cycle, as a lone statement answers them. */
  balances: BalancesSeen[];
}

export interface LedgerCycleStatementsOptions {
  /** The plain statement for batches of deferred holds alone (deferred-cycle-statement.ts); tests replace it. */
  deferredCycle?: DeferredCycleStatement;
  /** Milliseconds on a monotonic clock, for the pause after contended rows; `performance.now` by default. */
  now?: () => number;
}

/** A deferred hold of the batch was refused or repeated: nothing of the batch was applied (migration 0021). */
export class DeferredHoldNotTakenError extends Error {
  constructor(options: { cause: unknown }) {
    super("a deferred hold of a ledger batch was not taken", options);
    this.name = "DeferredHoldNotTakenError";
  }
}

interface CycleValues extends UsageRowsValues {
  settlements: readonly PostgresSettleInput[];
  holds: readonly LedgerCycleHold[];
  now: number;
}

/** The functions' answer; an empty array comes back as '{}' or, from their accumulators, as null. */
type CycleRow = {
  settled: boolean[] | null;
  held: (ReserveOutcome | "duplicate")[] | null;
  token_balances: (string | null)[] | null;
  wallet_balances: (string | null)[] | null;
  wallets_unlimited: (number | null)[] | null;
};

/**
 * The statement's text depends only on its shape: holds alone, settlements with no usage row, or settlements with
 * rows each insert takes as one row or as arrays (ledger-usage-rows.ts). So each shape is a statement template
 * (statement-template.ts), built and compiled on its first batch, at most ten in all: building and compiling the
 * batch's statement afresh cost the gateway 110–190 µs a batch (bench/profile-findings.md, "Batch statements
 * compiled once"), which two instances on one key pay twice as often, their batches half as large.
 */
export function createLedgerCycleStatements(
  db: Kysely<Database>,
  options: LedgerCycleStatementsOptions = {},
): LedgerCycleStatements {
  const templates = new Map<string, StatementTemplate<CycleValues, CycleRow>>();
  const noRows: UsageRowsValues = { usageRows: [], rollups: [], modelRollups: [] };
  const deferredCycle = options.deferredCycle ?? createDeferredCycleStatement(db);
  const clock = options.now ?? (() => performance.now());
  let contendedUntil = Number.NEGATIVE_INFINITY;
  return {
    async run(settlements, holds, now) {
      const onlyDeferred = holds.every((hold): hold is DeferredHold => hold.settlement !== undefined);
      if (settlements.length === 0 && holds.length > 0 && onlyDeferred && clock() >= contendedUntil) {
        // A batch of deferred holds that provably writes each already settled, as one plain statement; any other
        // goes through the function, and so does every batch for a while after one found its rows locked.
        const answers = await deferredCycle.run(holds, now).catch((error: unknown) => {
          throw isRepeatedReservationId(error) ? new DeferredHoldNotTakenError({ cause: error }) : error;
        });
        if (typeof answers === "object") return { settled: [], ...answers };
        if (answers === "contended") contendedUntil = clock() + contendedPauseMs;
      }
      const rows: NewUsageLog[] = [];
      for (const item of settlements) if (item.usageRow) rows.push(item.usageRow);
      let deferred = false;
      for (const item of holds) {
        if (item.settlement === undefined) continue;
        deferred = true;
        if (item.settlement.usageRow) rows.push(item.settlement.usageRow);
      }
      const values: CycleValues = { settlements, holds, now, ...(rows.length === 0 ? noRows : usageRowsValues(rows)) };
      // Holds alone commit without waiting for the flush; a deferred hold is settled, so its batch waits.
      const shape: CycleShape =
        settlements.length === 0 && !deferred ? "holds" : rows.length === 0 ? "settlements" : usageRowsShapeOf(values);
      const key = typeof shape === "string" ? shape : usageRowsShapeKey(shape);
      let template = templates.get(key);
      if (template === undefined) {
        template = createStatementTemplate(db, cycleStatement(shape));
        templates.set(key, template);
      }
      const row = await template.execute(values).then(
        (result) => result.rows[0]!,
        (error: unknown) => {
          throw isDeferredHoldNotTaken(error) ? new DeferredHoldNotTakenError({ cause: error }) : error;
        },
      );
      const held = row.held ?? [];
      return { settled: row.settled ?? [], held, balances: balancesPerHold(row, held.length) };
    },
  };
}

/**
 * How long batches of deferred holds go through the function after one found its rows locked by another transaction:
 * that is another instance busy on the same key or wallet, which stays so, and each try would cost a round trip.
 */
const contendedPauseMs = 1_000;

/** The primary key of the ledger's rows refused a deferred hold's id: it was used before. */
function isRepeatedReservationId(error: unknown): boolean {
  const { code, constraint } = error as { code?: unknown; constraint?: unknown };
  return code === "23505" && constraint === reservationIdConstraint;
}

/** The ledger functions' refusal of a deferred hold: nothing of the batch was applied. */
function isDeferredHoldNotTaken(error: unknown): boolean {
  return (error as { code?: unknown }).code === deferredHoldNotTakenCode;
}

/** Holds alone, settlements without usage rows, or settlements with rows of that shape. */
type CycleShape = "holds" | "settlements" | UsageRowsShape;

function cycleStatement(shape: CycleShape) {
  const settled = (read: (item: PostgresSettleInput) => unknown) =>
    parameterFrom<CycleValues>((values) => values.settlements.map(read));
  const held = (read: (item: LedgerCycleHold) => unknown) =>
    parameterFrom<CycleValues>((values) => values.holds.map(read));
  const now = parameterFrom<CycleValues>((values) => values.now);
  const cycle = sql`run_ledger_cycle(
      ${settled((item) => item.reservationId)}::text[],
      ${settled((item) => item.tokenId)}::bigint[],
      ${settled((item) => item.userId)}::bigint[],
      ${settled((item) => item.actual)}::bigint[],
      ${held((item) => item.input.requestId)}::text[],
      ${held((item) => item.input.tokenId)}::bigint[],
      ${held((item) => item.input.userId)}::bigint[],
      ${held((item) => item.input.amount)}::bigint[],
      ${held((item) => (item.input.tokenLimited ? 1 : 0))}::integer[],
      ${held((item) => item.settlement?.actual ?? null)}::bigint[],
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
