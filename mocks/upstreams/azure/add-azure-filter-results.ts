/** What Azure's content filter reports for text it let through. */
export const passedFilterResults = {
  hate: { filtered: false, severity: "safe" },
  self_harm: { filtered: false, severity: "safe" },
  sexual: { filtered: false, severity: "safe" },
  violence: { filtered: false, severity: "safe" },
};

/** The prompt's filter results as Azure puts them on an answer (one entry per prompt). */
export const promptFilterResults = [{ prompt_index: 0, content_filter_results: passedFilterResults }];

/**
 * Annotates a chat completion, chunk or image answer as Azure does: `prompt_filter_results` on a whole answer and
 * `content_filter_results` on each choice or image.
 */
export function addAzureFilterResults(answer: Record<string, unknown>, options: { wholeAnswer: boolean }): void {
  if (options.wholeAnswer) answer.prompt_filter_results = promptFilterResults;
  for (const listName of ["choices", "data"]) {
    const list = answer[listName];
    if (!Array.isArray(list)) continue;
    for (const item of list)
      if (item !== null && typeof item === "object")
        (item as Record<string, unknown>).content_filter_results = passedFilterResults;
  }
}
