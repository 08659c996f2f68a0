import type { Migration, MigrationProvider } from "kysely";
import type { DatabaseDialect } from "../database-dialect.js";
import { createBatchedLedgerFunctionsMigration } from "./create-batched-ledger-functions-migration.js";
import { createChannelCredentialFailuresMigration } from "./create-channel-credential-failures-migration.js";
import { createChannelHealthMigration } from "./create-channel-health-migration.js";
import { createDeferredHoldsInBatchesMigration } from "./create-deferred-holds-in-batches-migration.js";
import { createDeferredHoldsWrittenSettledMigration } from "./create-deferred-holds-written-settled-migration.js";
import { createHeapOnlyRollupUpdatesMigration } from "./create-heap-only-rollup-updates-migration.js";
import { createInitialMigration } from "./create-initial-migration.js";
import { createLedgerCycleFunctionMigration } from "./create-ledger-cycle-function-migration.js";
import { createOneSidedLedgerCycleMigration } from "./create-one-sided-ledger-cycle-migration.js";
import { createPartitionedUsageLogsMigration } from "./create-partitioned-usage-logs-migration.js";
import { createPricesAndGroupsMigration } from "./create-prices-and-groups-migration.js";
import { createResponseRoutesMigration } from "./create-response-routes-migration.js";
import { createSetBasedLedgerBatchesMigration } from "./create-set-based-ledger-batches-migration.js";
import { createTaskCallbackStateMigration } from "./create-task-callback-state-migration.js";
import { createTokenRateLimitsMigration } from "./create-token-rate-limits-migration.js";
import { createUsageModelRollupsMigration } from "./create-usage-model-rollups-migration.js";
import { createUsageRollupsMigration } from "./create-usage-rollups-migration.js";
import { createUserWalletsMigration } from "./create-user-wallets-migration.js";
import { createUnsettledReservationsIndexMigration } from "./create-unsettled-reservations-index-migration.js";
import { createVideoTasksMigration } from "./create-video-tasks-migration.js";
import { createWebhookSecretsMigration } from "./create-webhook-secrets-migration.js";

// Migrations are listed in code rather than globbed from disk so they survive bundling and
// run the same from src/ (tsx) and dist/ (tsc). Names sort in the order they must run.
export function createMigrationProvider(dialect: DatabaseDialect): MigrationProvider {
  const migrations: Record<string, Migration> = {
    "0001_initial": createInitialMigration(dialect),
    "0002_unsettled_reservations_index": createUnsettledReservationsIndexMigration(),
    "0003_token_rate_limits": createTokenRateLimitsMigration(),
    "0004_video_tasks": createVideoTasksMigration(),
    "0005_webhook_secrets_and_callback_deliveries": createWebhookSecretsMigration(dialect),
    "0006_task_callback_state": createTaskCallbackStateMigration(),
    "0007_response_routes": createResponseRoutesMigration(),
    "0008_user_wallets": createUserWalletsMigration(dialect),
    "0009_prices_and_groups": createPricesAndGroupsMigration(),
    "0010_usage_rollups": createUsageRollupsMigration(),
    "0011_channel_health": createChannelHealthMigration(),
    "0013_batched_ledger_functions": createBatchedLedgerFunctionsMigration(dialect),
    "0014_ledger_cycle_function": createLedgerCycleFunctionMigration(dialect),
    "0015_usage_model_rollups": createUsageModelRollupsMigration(dialect),
    "0016_partitioned_usage_logs": createPartitionedUsageLogsMigration(dialect, () => Math.floor(Date.now() / 1000)),
    "0017_one_sided_ledger_cycle": createOneSidedLedgerCycleMigration(dialect),
    "0018_channel_credential_failures": createChannelCredentialFailuresMigration(),
    "0019_set_based_ledger_batches": createSetBasedLedgerBatchesMigration(dialect),
    "0020_heap_only_rollup_updates": createHeapOnlyRollupUpdatesMigration(dialect),
    "0021_deferred_holds_in_batches": createDeferredHoldsInBatchesMigration(dialect),
    "0022_deferred_holds_written_settled": createDeferredHoldsWrittenSettledMigration(dialect),
  };
  return { getMigrations: async () => migrations };
}
