/** What one checker found; merged into the report `{passed, failed, skipped}`. */
export interface ContractOutcome {
  passed: string[];
  failed: Array<{ name: string; reason: string }>;
  skipped: Array<{ name: string; reason: string }>;
}

export function createContractOutcome(): ContractOutcome {
  return { passed: [], failed: [], skipped: [] };
}
