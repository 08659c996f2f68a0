/** One administrative change: who did what to which object, with the object before and after (no secrets). */
export interface AuditRecord {
  id: number;
  actorUserId: number | null;
  action: string;
  target: string;
  before: unknown;
  after: unknown;
  createdTime: number;
}
