import { useState } from "react";
import { useTranslation } from "react-i18next";
import { describeError } from "../format/describe-error";

/**
 * A form's submission state: `send` runs the submit callback once at a time, and what it threw becomes the
 * message `failureAlert` shows (as an alert, so a screen reader announces it).
 */
export function useFormSubmission<Fields>(onSubmit: (fields: Fields) => Promise<void>) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState("");

  async function send(fields: Fields) {
    setBusy(true);
    setFailure("");
    try {
      await onSubmit(fields);
    } catch (error) {
      setFailure(describeError(error, t));
    } finally {
      setBusy(false);
    }
  }

  const failureAlert = failure ? (
    <p role="alert" className="error">
      {failure}
    </p>
  ) : null;
  return { busy, send, failureAlert };
}
