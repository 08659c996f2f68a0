import type { ConsoleClient } from "./api/create-console-client";
import type { User } from "./api/management-types";

/** The signed-in user and the client that carries their access token. */
export interface Session {
  user: User;
  client: ConsoleClient;
}
