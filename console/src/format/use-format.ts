import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import type { TaskStatus } from "../api/management-types";

export const unitsPerDollar = 500_000;

/**
 * Numbers, money and dates in the page's language (Intl), and the words for the gateway's status values. Quota
 * is shown in units with its value in US dollars beside it (500,000 units = $1).
 */
export function useFormat() {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  return useMemo(() => {
    const numbers = new Intl.NumberFormat(locale);
    const dollars = new Intl.NumberFormat(locale, {
      style: "currency",
      currency: "USD",
      minimumFractionDigits: 2,
      maximumFractionDigits: 6,
    });
    const times = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" });
    const utcDays = new Intl.DateTimeFormat(locale, { month: "short", day: "numeric", timeZone: "UTC" });
    const tokenStatuses: Record<number, string> = {
      1: t("tokenStatus.enabled"),
      2: t("tokenStatus.disabled"),
      3: t("tokenStatus.expired"),
      4: t("tokenStatus.exhausted"),
    };
    const taskStatuses: Record<TaskStatus, string> = {
      queued: t("taskStatus.queued"),
      in_progress: t("taskStatus.inProgress"),
      completed: t("taskStatus.completed"),
      failed: t("taskStatus.failed"),
    };
    return {
      number: (value: number) => numbers.format(value),
      dollars: (value: number) => dollars.format(value),
      quota: (units: number) =>
        t("format.quota", {
          count: units,
          units: numbers.format(units),
          dollars: dollars.format(units / unitsPerDollar),
        }),
      /** Unix seconds as a local date and time. */
      time: (unixSeconds: number) => times.format(new Date(unixSeconds * 1000)),
      /** Unix seconds as the UTC day it falls in (the statistics' buckets are UTC days). */
      utcDay: (unixSeconds: number) => utcDays.format(new Date(unixSeconds * 1000)),
      tokenStatus: (status: number) => tokenStatuses[status] ?? t("tokenStatus.other", { status }),
      taskStatus: (status: TaskStatus) => taskStatuses[status],
    };
  }, [t, locale]);
}

export type Format = ReturnType<typeof useFormat>;
