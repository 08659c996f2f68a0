import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { createGatewayClient } from "ai-api-gateway/client";
import { ApiFailure } from "../api/api-failure";
import { unwrapAnswer } from "../api/unwrap-answer";
import { PageHeading } from "../components/page-heading";
import { PreferenceSwitches } from "../components/preference-switches";
import { describeError } from "../format/describe-error";

type SignInWay = "password" | "token";

/** Sign in with a username and password (POST /api/user/login) or with an access token directly. */
export function SignInPage({ onSignIn }: { onSignIn: (accessToken: string) => Promise<void> }) {
  const { t } = useTranslation();
  const [failure, setFailure] = useState("");
  const [busy, setBusy] = useState(false);

  // The gateway's 401 text is written for API clients (which header to send); a person gets plain words.
  function describeFailure(error: unknown, way: SignInWay): string {
    if (error instanceof ApiFailure && error.status === 401)
      return way === "password" ? t("signIn.wrongPassword") : t("signIn.tokenRefused");
    if (error instanceof ApiFailure && error.status === 429) return t("signIn.tooManyAttempts");
    return describeError(error, t);
  }

  async function run(
    event: FormEvent<HTMLFormElement>,
    way: SignInWay,
    obtainToken: (form: FormData) => Promise<string>,
  ) {
    event.preventDefault();
    setBusy(true);
    setFailure("");
    try {
      await onSignIn(await obtainToken(new FormData(event.currentTarget)));
    } catch (error) {
      setFailure(describeFailure(error, way));
    } finally {
      setBusy(false);
    }
  }

  const withPassword = (form: FormData) =>
    unwrapAnswer(
      createGatewayClient({ baseUrl: window.location.origin }).management.POST("/api/user/login", {
        body: { username: String(form.get("username")), password: String(form.get("password")) },
      }),
    ).then((answer) => answer.data.access_token);

  return (
    <main id="main" className="sign-in">
      <PreferenceSwitches />
      <PageHeading>{t("signIn.title")}</PageHeading>
      {failure && (
        <p role="alert" className="error">
          {failure}
        </p>
      )}
      <form onSubmit={(event) => run(event, "password", withPassword)} aria-labelledby="password-sign-in">
        <h2 id="password-sign-in">{t("signIn.withPassword")}</h2>
        <label>
          {t("signIn.username")}
          <input name="username" autoComplete="username" required />
        </label>
        <label>
          {t("signIn.password")}
          <input name="password" type="password" autoComplete="current-password" required />
        </label>
        <button type="submit" disabled={busy}>
          {t("signIn.submit")}
        </button>
      </form>
      <form
        onSubmit={(event) => run(event, "token", async (form) => String(form.get("accessToken")).trim())}
        aria-labelledby="token-sign-in"
      >
        <h2 id="token-sign-in">{t("signIn.withToken")}</h2>
        <label>
          {t("signIn.accessToken")}
          <input name="accessToken" type="password" autoComplete="off" required />
        </label>
        <button type="submit" disabled={busy}>
          {t("signIn.submitToken")}
        </button>
      </form>
    </main>
  );
}
