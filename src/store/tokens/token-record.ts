export interface TokenRecord {
  id: number;
  userId: number;
  name: string;
  /** keyed hash of the full key, used for lookup */
  keyHash: string;
  /** the key encrypted with the gateway secret, revealable through the key endpoints */
  keyEncrypted: string;
  /** 1 enabled, 2 disabled, 3 expired, 4 quota exhausted */
  status: number;
  remainQuota: number;
  usedQuota: number;
  unlimitedQuota: boolean;
  modelLimitsEnabled: boolean;
  /** allowed models, comma separated */
  modelLimits: string;
  /** IP allow-list, newline or comma separated, CIDR supported */
  allowIps: string;
  /** billing group; empty means the owner's group */
  group: string;
  crossGroupRetry: boolean;
  /** requests per minute on /v1 and /v1beta; 0 means no limit */
  rpmLimit: number;
  /** tokens per minute (prompt plus completion) on /v1 and /v1beta; 0 means no limit */
  tpmLimit: number;
  /** Unix seconds; -1 never expires */
  expiredTime: number;
  createdTime: number;
  accessedTime: number;
}
