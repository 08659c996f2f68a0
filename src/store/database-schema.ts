import type { ColumnType, Generated } from "kysely";

// Booleans are stored as integer 0/1 in both dialects so rows look the same everywhere;
// the query functions convert them to real booleans at the edge.
type StoredBoolean = ColumnType<number, number | undefined, number>;
type WithDefault<Value> = ColumnType<Value, Value | undefined, Value>;

export interface UsersTable {
  id: Generated<number>;
  username: string;
  password_hash: string;
  display_name: string;
  role: "user" | "admin" | "root";
  group_name: WithDefault<string>;
  /** 1 enabled, 2 disabled, 3 deleted (kept for its history; signs in and routes nothing) */
  status: WithDefault<number>;
  access_token_hash: string | null;
  access_token_encrypted: string | null;
  created_time: number;
  /** the wallet: units the user may still spend (ignored while quota_unlimited is 1) */
  quota: WithDefault<number>;
  /** units the user's requests were charged, over all their tokens */
  used_quota: WithDefault<number>;
  /** 1: the wallet does not limit spending (the default of accounts older than wallets, and of root) */
  quota_unlimited: ColumnType<number, number | undefined, number>;
  /** JSON array of the groups the user may pick besides their default group */
  allowed_groups: WithDefault<string>;
}

export interface TokensTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  key_hash: string;
  key_encrypted: string;
  /** 1 enabled, 2 disabled, 3 expired, 4 quota exhausted */
  status: WithDefault<number>;
  remain_quota: WithDefault<number>;
  used_quota: WithDefault<number>;
  unlimited_quota: StoredBoolean;
  model_limits_enabled: StoredBoolean;
  model_limits: WithDefault<string>;
  allow_ips: WithDefault<string>;
  group_name: WithDefault<string>;
  cross_group_retry: StoredBoolean;
  /** requests per minute on /v1 and /v1beta; 0 means no limit */
  rpm_limit: WithDefault<number>;
  /** tokens per minute on /v1 and /v1beta; 0 means no limit */
  tpm_limit: WithDefault<number>;
  /** Unix seconds; -1 never expires */
  expired_time: WithDefault<number>;
  created_time: number;
  accessed_time: WithDefault<number>;
}

export interface ChannelsTable {
  id: Generated<number>;
  name: string;
  type: string;
  base_url: string;
  keys_encrypted: string;
  /** JSON array of model names */
  models: string;
  /** JSON object, our model name → upstream model name */
  model_mapping: string;
  /** JSON array of group names */
  groups: string;
  priority: WithDefault<number>;
  weight: WithDefault<number>;
  enabled: StoredBoolean;
  source: "config" | "api";
  /** JSON object: timeouts and other per-channel settings */
  settings: string;
  created_time: number;
}

/** A channel (key_index -1) or one key of it taken out of routing; healthy ones have no row. */
export interface ChannelHealthTable {
  channel_id: number;
  key_index: number;
  /** `auto_disabled` (the upstream refused the credential or account) or `disabled` (an administrator) */
  state: string;
  reason: string;
  /** the upstream's HTTP status that caused an automatic disable */
  upstream_status: number | null;
  /** unix seconds */
  changed_time: number;
}

/** One credential or account failure of a channel or key, counted by every instance toward taking it out. */
export interface ChannelCredentialFailuresTable {
  channel_id: number;
  key_index: number;
  /** unix seconds */
  failed_time: number;
}

/** The outcome of the last test of a channel (one row per channel, replaced by each test). */
export interface ChannelLastTestsTable {
  channel_id: number;
  success: number;
  latency_ms: number;
  model: string;
  message: string;
  /** unix seconds */
  tested_time: number;
}

/** The administrator's channel health rules (one row, id 1), over the config file's. */
export interface ChannelHealthRulesTable {
  id: number;
  disable_after_failures: number;
  failure_window_seconds: number;
  probe_interval_seconds: number;
  /** unix seconds */
  updated_time: number;
}

export interface QuotaReservationsTable {
  /** the request id */
  id: string;
  token_id: number;
  user_id: number;
  reserved: number;
  settled: StoredBoolean;
  actual: number | null;
  created_time: number;
  settled_time: number | null;
  /** 1 when `reserved` was taken from the token's balance (0: an unlimited token) */
  token_held: WithDefault<number>;
  /** 1 when `reserved` was taken from the owner's wallet (0: an unlimited wallet) */
  wallet_held: WithDefault<number>;
}

export interface UsageLogsTable {
  id: Generated<number>;
  user_id: number;
  token_id: number;
  token_name: string;
  model: string;
  channel_id: number | null;
  request_id: string;
  is_stream: StoredBoolean;
  prompt_tokens: number;
  completion_tokens: number;
  cached_tokens: number;
  cache_write_tokens: Generated<number>;
  reasoning_tokens: number;
  quota: number;
  latency_ms: number;
  status: "success" | "error";
  error_message: string | null;
  created_time: number;
  /** The group the request was billed under ('' for rows logged before it was recorded). */
  group_name: Generated<string>;
}

/** Usage summed per UTC hour, user, token, model, channel (0: none chosen) and group, committed with each row. */
export interface UsageRollupsTable {
  /** Start of the UTC hour, Unix seconds. */
  hour: number;
  user_id: number;
  token_id: number;
  model: string;
  channel_id: number;
  group_name: string;
  requests: number;
  errors: number;
  prompt_tokens: number;
  completion_tokens: number;
  cached_tokens: number;
  cache_write_tokens: number;
  quota: number;
  /** Summed latency of the hour's requests, milliseconds. */
  latency_ms: number;
}

/** The hourly rollups summed over users, tokens, channels and groups: what statistics of every user read. */
export interface UsageModelRollupsTable {
  /** Start of the UTC hour, Unix seconds. */
  hour: number;
  model: string;
  requests: number;
  errors: number;
  prompt_tokens: number;
  completion_tokens: number;
  cached_tokens: number;
  cache_write_tokens: number;
  quota: number;
  latency_ms: number;
}

export interface TasksTable {
  /** our task id */
  id: string;
  user_id: number;
  token_id: number;
  channel_id: number | null;
  model: string;
  upstream_task_id: string | null;
  status: "queued" | "in_progress" | "completed" | "failed";
  progress: WithDefault<number>;
  reservation_id: string | null;
  result_url: string | null;
  error_code: string | null;
  error_message: string | null;
  /** JSON text */
  request_body: string | null;
  /** JSON text */
  response_body: string | null;
  created_time: number;
  updated_time: number;
  completed_time: number | null;
  token_name: WithDefault<string>;
  /** the group the reservation was priced under (its ratio applies at settlement) */
  billing_group: WithDefault<string>;
  /** which of the channel's keys submitted the task (the upstream task lives under that account) */
  key_index: WithDefault<number>;
  upstream_model: string | null;
  /** the documented upstream vocabulary: PENDING, RUNNING, SUCCEEDED, FAILED, CANCELED, UNKNOWN */
  upstream_status: string | null;
  trace_id: string | null;
  idempotency_key: string | null;
  /** SHA-256 of the submitted request, to tell a replay from a different body under the same key */
  request_hash: string | null;
  reserved_quota: WithDefault<number>;
  unlimited_quota: StoredBoolean;
  /** the final cost, written by the terminal compare-and-swap (null while the task runs) */
  quota: number | null;
  billed_seconds: number | null;
  /** epoch milliseconds when the task is next due for a poll; a claim pushes it out by the lease */
  next_poll_at: WithDefault<number>;
  poll_failures: WithDefault<number>;
  /** where the task's callback stands: pending, delivered, exhausted; null without one (or finished before 0006) */
  callback_state: "pending" | "delivered" | "exhausted" | null;
  /** callback tries made so far */
  callback_attempts: WithDefault<number>;
  /** epoch milliseconds when the next callback try is due; a sender's claim pushes it out by a lease */
  callback_next_at: WithDefault<number>;
}

export interface UserWebhookSecretsTable {
  user_id: number;
  /** the signing secret, encrypted by the key cipher */
  secret_encrypted: string;
  created_time: number;
  updated_time: number;
}

export interface TaskCallbackDeliveriesTable {
  id: Generated<number>;
  task_id: string;
  /** 1 for the first try */
  attempt: number;
  /** the receiver's HTTP status; null when no answer came */
  status_code: number | null;
  error_message: string | null;
  succeeded: StoredBoolean;
  created_time: number;
}

export interface ResponseRoutesTable {
  /** an id the upstream gave: a response (`resp_…`) or one of its output items (`msg_…`, `fc_…`, `rs_…`) */
  upstream_id: string;
  channel_id: number;
  /** which of the channel's keys made it (the upstream object lives under that account) */
  key_index: number;
  /** epoch milliseconds */
  created_time: number;
}

export interface QuotaLedgerTable {
  id: Generated<number>;
  user_id: number;
  /** signed: a top-up is positive */
  delta: number;
  /** the wallet right after the change */
  balance_after: number;
  source: "admin" | "redemption";
  reason: string;
  actor_user_id: number | null;
  redemption_code_id: number | null;
  created_time: number;
}

export interface RedemptionCodesTable {
  id: Generated<number>;
  /** keyed hash of the code; the code itself is shown once, when created */
  code_hash: string;
  name: string;
  quota: number;
  status: WithDefault<"unused" | "redeemed" | "disabled">;
  /** Unix seconds; -1 never expires */
  expires_time: WithDefault<number>;
  created_by: number;
  created_time: number;
  redeemed_by: number | null;
  redeemed_time: number | null;
}

export interface AuditLogTable {
  id: Generated<number>;
  /** null: the operator's command line */
  actor_user_id: number | null;
  /** what was done, e.g. `user.update`, `wallet.adjust`, `channel.delete` */
  action: string;
  /** what it was done to, e.g. `user:5`, `channel:3`, `redemption:spring` */
  target: string;
  /** JSON of the object before the change (secrets left out); null for a creation */
  before_json: string | null;
  /** JSON of the object after the change (secrets left out); null for a deletion */
  after_json: string | null;
  created_time: number;
}

export interface ModelPricesTable {
  /** the model name clients send */
  model: string;
  /** `config`: rewritten from the configuration file at every start; `api`: set by an administrator */
  source: "config" | "api";
  /** JSON object of the configuration file's price keys (`input`, `output`, `per_image`, …) */
  price: string;
  updated_time: number;
}

export interface BillingGroupsTable {
  name: string;
  /** `config`: rewritten from the configuration file at every start; `api`: made by an administrator */
  source: "config" | "api";
  ratio: number;
  description: WithDefault<string>;
  /** 1: every user may put the group on a token */
  selectable: StoredBoolean;
  /** the configured order (also `auto`'s failover order when the file names none) */
  position: WithDefault<number>;
  updated_time: number;
}

export interface Database {
  users: UsersTable;
  tokens: TokensTable;
  channels: ChannelsTable;
  channel_health: ChannelHealthTable;
  channel_credential_failures: ChannelCredentialFailuresTable;
  channel_last_tests: ChannelLastTestsTable;
  channel_health_rules: ChannelHealthRulesTable;
  quota_reservations: QuotaReservationsTable;
  usage_logs: UsageLogsTable;
  usage_rollups: UsageRollupsTable;
  usage_model_rollups: UsageModelRollupsTable;
  tasks: TasksTable;
  user_webhook_secrets: UserWebhookSecretsTable;
  task_callback_deliveries: TaskCallbackDeliveriesTable;
  response_routes: ResponseRoutesTable;
  quota_ledger: QuotaLedgerTable;
  redemption_codes: RedemptionCodesTable;
  audit_log: AuditLogTable;
  model_prices: ModelPricesTable;
  billing_groups: BillingGroupsTable;
}
