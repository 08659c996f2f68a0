import { GatewayError } from "./gateway-error.js";

/**
 * The database could not be reached or did not answer in time (a lost connection, a timeout, a server restarting).
 * The request fails with 503 in its surface's envelope and may be retried; the process carries on, and the pool
 * replaces the connection.
 */
export class DatabaseUnavailableError extends GatewayError {
  constructor(options: { cause?: unknown } = {}) {
    super("The database is unavailable; retry the request shortly.", {
      ...options,
      status: 503,
      code: "database_unavailable",
    });
  }
}
