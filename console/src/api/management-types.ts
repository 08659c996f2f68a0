import type { components, operations } from "../../../generated/types/management";

// Short names for the generated management types the console uses; nothing here is written by hand.
export type Token = components["schemas"]["Token"];
export type CreateTokenRequest = components["schemas"]["CreateTokenRequest"];
export type UpdateTokenRequest = components["schemas"]["UpdateTokenRequest"];
export type User = components["schemas"]["User"];
export type Channel = components["schemas"]["Channel"];
export type CreateChannelRequest = components["schemas"]["CreateChannelRequest"];
export type ChannelTestResult = components["schemas"]["ChannelTestResult"];
export type ChannelHealth = components["schemas"]["ChannelHealth"];
export type ChannelKeyHealth = components["schemas"]["ChannelKeyHealth"];
export type ChannelLastTest = components["schemas"]["ChannelLastTest"];
export type UsageLog = components["schemas"]["UsageLog"];
export type AdminUsageLog = components["schemas"]["AdminUsageLog"];
export type AdminUsageLogDetail = components["schemas"]["AdminUsageLogDetail"];
export type AdminLogExportQuery = NonNullable<operations["exportLogs"]["parameters"]["query"]>;
export type LogStatistics = components["schemas"]["LogStatistics"];
export type UsageBucket = components["schemas"]["UsageBucket"];
export type UserTask = components["schemas"]["UserTask"];
export type TaskStatus = components["schemas"]["TaskStatus"];
export type UsableGroupList = components["schemas"]["UsableGroupList"];
export type QuotaChange = components["schemas"]["QuotaChange"];
export type UpdateUserRequest = components["schemas"]["UpdateUserRequest"];
