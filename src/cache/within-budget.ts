export type BudgetAnswer<Value> = { answered: true; value: Value } | { answered: false };

/**
 * The value if it comes within `budgetMs`; otherwise (or on failure) nothing, and the late outcome is ignored. How
 * a request waits on Redis: never longer than REDIS_WAIT_BUDGET_MS, after which the caller uses its own memory.
 */
export function withinBudget<Value>(promise: Promise<Value>, budgetMs: number): Promise<BudgetAnswer<Value>> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ answered: false }), budgetMs);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve({ answered: true, value });
      },
      () => {
        clearTimeout(timer);
        resolve({ answered: false });
      },
    );
  });
}
