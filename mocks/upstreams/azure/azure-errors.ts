/** Azure OpenAI's error envelope: `{error: {code, message, …}}` (its codes are strings, often the status). */
export function createAzureErrorBody(code: string, message: string, extra: Record<string, unknown> = {}): object {
  return { error: { code, message, ...extra } };
}

/** The body Azure sends for a status; `message` overrides the wording. */
export function renderAzureStatusError(status: number, message?: string): object {
  switch (status) {
    case 401:
      return createAzureErrorBody(
        "401",
        message ??
          "Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.",
      );
    case 404:
      return createAzureErrorBody("404", message ?? "Resource not found");
    case 429:
      return createAzureErrorBody(
        "429",
        message ??
          "Requests to the ChatCompletions_Create Operation under Azure OpenAI API version 2024-10-21 have exceeded token rate limit of your current OpenAI S0 pricing tier. Please retry after 1 second.",
      );
    default:
      return createAzureErrorBody(
        String(status),
        message ?? (status >= 500 ? "The server had an error while processing your request." : "Bad request."),
      );
  }
}

/** What Azure's content filter answers when a prompt triggers it (HTTP 400, code `content_filter`). */
export const azurePromptFilteredBody = createAzureErrorBody(
  "content_filter",
  "The response was filtered due to the prompt triggering Azure OpenAI's content management policy. Please modify your prompt and retry.",
  {
    type: null,
    param: "prompt",
    status: 400,
    innererror: {
      code: "ResponsibleAIPolicyViolation",
      content_filter_result: {
        hate: { filtered: false, severity: "safe" },
        self_harm: { filtered: false, severity: "safe" },
        sexual: { filtered: false, severity: "safe" },
        violence: { filtered: true, severity: "medium" },
      },
    },
  },
);
