import { useCallback, useEffect, useState } from "react";
import { createConsoleClient } from "./api/create-console-client";
import { signedOutEvent } from "./api/signed-out-event";
import { unwrapAnswer } from "./api/unwrap-answer";
import { ChannelsPage } from "./pages/channels-page";
import { SignInPage } from "./pages/sign-in-page";
import { TasksPage } from "./pages/tasks-page";
import { TokensPage } from "./pages/tokens-page";
import { UsagePage } from "./pages/usage-page";
import type { Session } from "./session";
import { useLocationPath } from "./use-location-path";

// The access token lives for the browser tab only (sessionStorage), never in a URL or cookie.
const storageKey = "gateway-console-access-token";

const pages = [
  { path: "/tokens", label: "Tokens", adminOnly: false },
  { path: "/usage", label: "Usage", adminOnly: false },
  { path: "/tasks", label: "Tasks", adminOnly: false },
  { path: "/channels", label: "Channels", adminOnly: true },
];

export function App() {
  const [session, setSession] = useState<Session>();
  const [restoring, setRestoring] = useState(() => sessionStorage.getItem(storageKey) !== null);
  const [path, navigate] = useLocationPath();

  const signIn = useCallback(async (accessToken: string) => {
    const client = createConsoleClient(accessToken);
    const answer = await unwrapAnswer(client.GET("/api/user/self"));
    sessionStorage.setItem(storageKey, accessToken);
    setSession({ user: answer.data, client });
  }, []);
  const signOut = useCallback(() => {
    sessionStorage.removeItem(storageKey);
    setSession(undefined);
  }, []);

  useEffect(() => {
    const saved = sessionStorage.getItem(storageKey);
    if (saved)
      signIn(saved)
        .catch(signOut)
        .finally(() => setRestoring(false));
    window.addEventListener(signedOutEvent, signOut);
    return () => window.removeEventListener(signedOutEvent, signOut);
  }, [signIn, signOut]);

  if (restoring) return <p className="loading">Loading…</p>;
  if (!session) return <SignInPage onSignIn={signIn} />;

  const isAdmin = session.user.role !== "user";
  const visiblePages = pages.filter((page) => isAdmin || !page.adminOnly);
  const current = visiblePages.find((page) => path.startsWith(page.path)) ?? visiblePages[0];
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="top-bar">
        <span className="brand">AI API Gateway</span>
        <nav aria-label="Main">
          <ul>
            {visiblePages.map((page) => (
              <li key={page.path}>
                <a
                  href={page.path}
                  aria-current={page === current ? "page" : undefined}
                  onClick={(event) => {
                    event.preventDefault();
                    navigate(page.path);
                  }}
                >
                  {page.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <span className="signed-in-as">
          {session.user.display_name} ({session.user.role})
        </span>
        <button type="button" onClick={signOut}>
          Sign out
        </button>
      </header>
      <main id="main">
        {current.path === "/tokens" && <TokensPage session={session} />}
        {current.path === "/usage" && <UsagePage session={session} />}
        {current.path === "/tasks" && <TasksPage session={session} />}
        {current.path === "/channels" && <ChannelsPage session={session} />}
      </main>
    </>
  );
}
