import type { components, operations } from "../../generated/types/management.js";

// Short names for the generated management types the token code uses; nothing here is written by hand.
export type Token = components["schemas"]["Token"];
export type TokenPage = components["schemas"]["TokenPage"];
export type CreateTokenRequest = components["schemas"]["CreateTokenRequest"];
export type UpdateTokenRequest = components["schemas"]["UpdateTokenRequest"];
export type ManagementOperations = operations;
export type User = components["schemas"]["User"];
export type Channel = components["schemas"]["Channel"];
export type UsageLog = components["schemas"]["UsageLog"];
