import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { createConsoleClient } from "./api/create-console-client";
import { signedOutEvent } from "./api/signed-out-event";
import { unwrapAnswer } from "./api/unwrap-answer";
import { PreferenceSwitches } from "./components/preference-switches";
import { AuditPage } from "./pages/audit-page";
import { ChannelsPage } from "./pages/channels-page";
import { DashboardPage } from "./pages/dashboard-page";
import { NotFoundPage } from "./pages/not-found-page";
import { PricesPage } from "./pages/prices-page";
import { PricingPage } from "./pages/pricing-page";
import { RedemptionCodesPage } from "./pages/redemption-codes-page";
import { SignInPage } from "./pages/sign-in-page";
import { TasksPage } from "./pages/tasks-page";
import { TokensPage } from "./pages/tokens-page";
import { UsagePage } from "./pages/usage-page";
import { UsersPage } from "./pages/users-page";
import { WalletPage } from "./pages/wallet-page";
import type { Session } from "./session";
import { useLocationPath } from "./use-location-path";

// The access token lives for the browser tab only (sessionStorage), never in a URL or cookie.
const storageKey = "gateway-console-access-token";

const pages = [
  { path: "/dashboard", labelKey: "nav.dashboard", adminOnly: false, Page: DashboardPage },
  { path: "/tokens", labelKey: "nav.tokens", adminOnly: false, Page: TokensPage },
  { path: "/usage", labelKey: "nav.usage", adminOnly: false, Page: UsagePage },
  { path: "/tasks", labelKey: "nav.tasks", adminOnly: false, Page: TasksPage },
  { path: "/wallet", labelKey: "nav.wallet", adminOnly: false, Page: WalletPage },
  { path: "/pricing", labelKey: "nav.pricing", adminOnly: false, Page: PricingPage },
  { path: "/channels", labelKey: "nav.channels", adminOnly: true, Page: ChannelsPage },
  { path: "/users", labelKey: "nav.users", adminOnly: true, Page: UsersPage },
  // Administrators' money and change records.
  { path: "/redemption", labelKey: "administration.redemption", adminOnly: true, Page: RedemptionCodesPage },
  { path: "/prices", labelKey: "administration.prices", adminOnly: true, Page: PricesPage },
  { path: "/audit", labelKey: "administration.audit", adminOnly: true, Page: AuditPage },
] as const;

/** The page a path names: `/` is the dashboard, `/tokens/…` is Tokens; anything else is not found. */
function findPage(path: string, visiblePages: readonly (typeof pages)[number][]) {
  if (path === "/" || path === "") return visiblePages[0];
  return visiblePages.find((page) => path === page.path || path.startsWith(`${page.path}/`));
}

export function App() {
  const { t } = useTranslation();
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

  if (restoring) return <p className="loading">{t("app.loading")}</p>;
  if (!session) return <SignInPage onSignIn={signIn} />;

  const isAdmin = session.user.role !== "user";
  const visiblePages = pages.filter((page) => isAdmin || !page.adminOnly);
  const current = findPage(path, visiblePages);
  const roleNames: Record<string, string> = {
    user: t("roles.user"),
    admin: t("roles.admin"),
    root: t("roles.root"),
  };
  return (
    <>
      <a className="skip-link" href="#main">
        {t("app.skipToContent")}
      </a>
      <header className="top-bar">
        <span className="brand">{t("app.brand")}</span>
        <nav aria-label={t("nav.label")}>
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
                  {t(page.labelKey)}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <span className="signed-in-as">
          {t("app.signedInAs", {
            name: session.user.display_name,
            role: roleNames[session.user.role] ?? session.user.role,
          })}
        </span>
        <PreferenceSwitches />
        <button type="button" onClick={signOut}>
          {t("app.signOut")}
        </button>
      </header>
      <main id="main">
        {current ? (
          <current.Page session={session} />
        ) : (
          <NotFoundPage
            path={path}
            home={{ path: visiblePages[0].path, label: t(visiblePages[0].labelKey) }}
            onNavigate={navigate}
          />
        )}
      </main>
    </>
  );
}
