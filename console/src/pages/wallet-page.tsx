import { type FormEvent, useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { QuotaChange, User } from "../api/management-types";
import { unwrapAnswer } from "../api/unwrap-answer";
import { Notice, type NoticeMessage } from "../components/notice";
import { PageHeading } from "../components/page-heading";
import { Pager } from "../components/pager";
import { describeError } from "../format/describe-error";
import { useFormat } from "../format/use-format";
import type { Session } from "../session";

const pageSize = 20;

/** The signed-in user's wallet: its balance, the top-ups it received, and a form to redeem a code into it. */
export function WalletPage({ session }: { session: Session }) {
  const { client } = session;
  const { t } = useTranslation();
  const format = useFormat();
  const [self, setSelf] = useState<User>(session.user);
  const [page, setPage] = useState(1);
  const [topUps, setTopUps] = useState<{ items: QuotaChange[]; total: number }>();
  const [notice, setNotice] = useState<NoticeMessage>();
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    try {
      const [user, changes] = await Promise.all([
        unwrapAnswer(client.GET("/api/user/self")),
        unwrapAnswer(client.GET("/api/user/self/topups", { params: { query: { p: page, size: pageSize } } })),
      ]);
      setSelf(user.data);
      setTopUps(changes.data);
    } catch (error) {
      setNotice({ kind: "error", text: describeError(error, t) });
    }
  }, [client, page, t]);
  useEffect(() => {
    void load();
  }, [load]);

  async function redeem(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const code = String(new FormData(form).get("code") ?? "").trim();
    setBusy(true);
    try {
      const answer = await unwrapAnswer(client.POST("/api/user/self/redeem", { body: { code } }));
      form.reset();
      setNotice({ kind: "success", text: t("wallet.redeemed", { amount: format.quota(answer.data.delta) }) });
      await load();
    } catch (error) {
      // The gateway's own sentence says why the code was refused (used, disabled, expired or unknown).
      setNotice({ kind: "error", text: describeError(error, t) });
    } finally {
      setBusy(false);
    }
  }

  const sources: Record<QuotaChange["source"], string> = {
    admin: t("wallet.sourceAdmin"),
    redemption: t("wallet.sourceRedemption"),
  };
  return (
    <>
      <PageHeading>{t("wallet.title")}</PageHeading>
      <section aria-labelledby="wallet-balance">
        <h2 id="wallet-balance">{t("wallet.balance")}</h2>
        <dl className="totals">
          <div>
            <dt>{t("wallet.remaining")}</dt>
            <dd>{self.quota_unlimited ? t("wallet.unlimited") : format.quota(self.quota)}</dd>
          </div>
          <div>
            <dt>{t("wallet.used")}</dt>
            <dd>{format.quota(self.used_quota)}</dd>
          </div>
        </dl>
      </section>
      <section aria-labelledby="wallet-redeem">
        <h2 id="wallet-redeem">{t("wallet.redeemTitle")}</h2>
        <form className="toolbar" aria-label={t("wallet.redeemTitle")} onSubmit={redeem}>
          <label>
            {t("wallet.code")}
            <input name="code" required maxLength={128} spellCheck={false} autoComplete="off" />
          </label>
          <button type="submit" disabled={busy}>
            {t("wallet.redeem")}
          </button>
        </form>
        <Notice notice={notice} />
      </section>
      <section aria-labelledby="wallet-history">
        <h2 id="wallet-history">{t("wallet.history")}</h2>
        {topUps &&
          (topUps.items.length === 0 ? (
            <p>{t("wallet.noTopUps")}</p>
          ) : (
            <>
              <table className="responsive-table">
                <caption className="visually-hidden">{t("wallet.history")}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t("wallet.when")}</th>
                    <th scope="col">{t("wallet.change")}</th>
                    <th scope="col">{t("wallet.balanceAfter")}</th>
                    <th scope="col">{t("wallet.source")}</th>
                    <th scope="col">{t("wallet.reason")}</th>
                  </tr>
                </thead>
                <tbody>
                  {topUps.items.map((change) => (
                    <tr key={change.id}>
                      <th scope="row" data-label={t("wallet.when")}>
                        {format.time(change.created_time)}
                      </th>
                      <td data-label={t("wallet.change")}>{format.quota(change.delta)}</td>
                      <td data-label={t("wallet.balanceAfter")}>{format.quota(change.balance_after)}</td>
                      <td data-label={t("wallet.source")}>{sources[change.source]}</td>
                      <td data-label={t("wallet.reason")}>{change.reason}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <Pager page={page} pageSize={pageSize} total={topUps.total} label={t("wallet.pages")} onPage={setPage} />
            </>
          ))}
      </section>
    </>
  );
}
