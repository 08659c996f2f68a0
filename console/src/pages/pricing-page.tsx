import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { SelfModelPrice } from "../api/management-types";
import { unwrapAnswer } from "../api/unwrap-answer";
import { Notice, type NoticeMessage } from "../components/notice";
import { PageHeading } from "../components/page-heading";
import { describeError } from "../format/describe-error";
import { describeModelPrice } from "../format/describe-model-price";
import { useFormat } from "../format/use-format";
import type { Session } from "../session";

/**
 * What the signed-in user pays: every model their groups reach, with its price in each of those groups (the
 * group's ratio already applied by the gateway), so a user can pick a group and a model knowing the cost.
 */
export function PricingPage({ session }: { session: Session }) {
  const { client } = session;
  const { t } = useTranslation();
  const format = useFormat();
  const [models, setModels] = useState<SelfModelPrice[]>();
  const [notice, setNotice] = useState<NoticeMessage>();

  useEffect(() => {
    unwrapAnswer(client.GET("/api/pricing/self"))
      .then((answer) => setModels(answer.data.items))
      .catch((error: unknown) => setNotice({ kind: "error", text: describeError(error, t) }));
  }, [client, t]);

  return (
    <>
      <PageHeading>{t("pricing.title")}</PageHeading>
      <p className="hint">{t("pricing.hint")}</p>
      <Notice notice={notice} />
      {models && models.length === 0 && <p>{t("pricing.none")}</p>}
      {models && models.length > 0 && (
        <table className="responsive-table">
          <caption className="visually-hidden">{t("pricing.title")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("pricing.model")}</th>
              <th scope="col">{t("pricing.groupPrices")}</th>
            </tr>
          </thead>
          <tbody>
            {models.map((entry) => (
              <tr key={entry.model}>
                <th scope="row" data-label={t("pricing.model")}>
                  {entry.model}
                </th>
                <td data-label={t("pricing.groupPrices")}>
                  {entry.priced ? (
                    <ul className="plain-list">
                      {entry.groups.map((group) => (
                        <li key={group.group}>
                          {t("pricing.inGroup", { group: group.group, ratio: format.number(group.ratio) })}
                          <ul className="plain-list">
                            {describeModelPrice(group.price, t, format).map((part) => (
                              <li key={part}>{part}</li>
                            ))}
                          </ul>
                        </li>
                      ))}
                    </ul>
                  ) : (
                    t("pricing.unpriced", { groups: entry.groups.map((group) => group.group).join(", ") })
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
