import type { FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useFormSubmission } from "../components/use-form-submission";

/** A new password an administrator sets for a user (the user's access token is revoked by the gateway). */
export function UserPasswordForm({
  onSubmit,
  onCancel,
}: {
  onSubmit: (password: string) => Promise<void>;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const { busy, send, failureAlert } = useFormSubmission(onSubmit);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    await send(String(new FormData(event.currentTarget).get("password") ?? ""));
  }

  return (
    <form className="stacked-form" onSubmit={submit}>
      {failureAlert}
      <label>
        {t("passwordForm.password")}
        <input
          name="password"
          type="password"
          required
          minLength={8}
          maxLength={128}
          autoComplete="new-password"
          aria-describedby="password-hint"
        />
        <span id="password-hint" className="hint">
          {t("passwordForm.hint")}
        </span>
      </label>
      <div className="form-actions">
        <button type="submit" disabled={busy}>
          {t("passwordForm.submit")}
        </button>
        <button type="button" onClick={onCancel}>
          {t("common.cancel")}
        </button>
      </div>
    </form>
  );
}
