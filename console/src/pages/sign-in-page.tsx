import { type FormEvent, useState } from "react";
import { createGatewayClient } from "ai-api-gateway/client";
import { unwrapAnswer } from "../api/unwrap-answer";
import { PageHeading } from "../components/page-heading";
import { describeError } from "../format/describe-error";

/** Sign in with a username and password (POST /api/user/login) or with an access token directly. */
export function SignInPage({ onSignIn }: { onSignIn: (accessToken: string) => Promise<void> }) {
  const [failure, setFailure] = useState("");
  const [busy, setBusy] = useState(false);

  async function run(event: FormEvent<HTMLFormElement>, obtainToken: (form: FormData) => Promise<string>) {
    event.preventDefault();
    setBusy(true);
    setFailure("");
    try {
      await onSignIn(await obtainToken(new FormData(event.currentTarget)));
    } catch (error) {
      setFailure(describeError(error));
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
      <PageHeading>Sign in</PageHeading>
      {failure && (
        <p role="alert" className="error">
          {failure}
        </p>
      )}
      <form onSubmit={(event) => run(event, withPassword)} aria-labelledby="password-sign-in">
        <h2 id="password-sign-in">With your password</h2>
        <label>
          Username
          <input name="username" autoComplete="username" required />
        </label>
        <label>
          Password
          <input name="password" type="password" autoComplete="current-password" required />
        </label>
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
      <form
        onSubmit={(event) => run(event, async (form) => String(form.get("accessToken")).trim())}
        aria-labelledby="token-sign-in"
      >
        <h2 id="token-sign-in">With an access token</h2>
        <label>
          Access token
          <input name="accessToken" type="password" autoComplete="off" required />
        </label>
        <button type="submit" disabled={busy}>
          Sign in with token
        </button>
      </form>
    </main>
  );
}
