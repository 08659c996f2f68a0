import { timingSafeEqual } from "node:crypto";

/**
 * String equality whose running time does not depend on where the strings
 * differ. On a length mismatch it still does a full comparison (against
 * itself) so the early exit costs the same as a real compare.
 */
export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, "utf8");
  const right = Buffer.from(b, "utf8");
  if (left.length !== right.length) {
    timingSafeEqual(left, left);
    return false;
  }
  return timingSafeEqual(left, right);
}
