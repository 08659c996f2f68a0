/** What assignRequestId leaves on the incoming request. */
export interface RequestIds {
  /** The id the client sees (`X-Request-Id`), in log lines and the usage log row. */
  requestId?: string;
  /** Always ours and unique: the quota ledger's key. */
  ledgerRequestId?: string;
  /** The model once the relay found channels for it (a bounded metrics label); unset before. */
  metricsModel?: string;
}
