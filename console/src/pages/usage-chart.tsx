import { useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { UsageBucket } from "../api/management-types";
import { useFormat } from "../format/use-format";

// Colour-blind-safe palette (Okabe–Ito, with grey for its black so it shows on the dark theme too); models past
// the eighth reuse it, their names are in the legend and titles.
const palette = ["#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00", "#f0e442", "#8c8c8c"];
const day = 86_400;
const height = 220;
const fontSize = 12;
const margin = { top: 14, right: 8, bottom: 30, left: 72 };
// Room one day label needs on the axis, in pixels.
const labelSpacing = 56;

/** The chart's drawn width in CSS pixels, so one SVG unit is one pixel and its text keeps its size on a phone. */
function useMeasuredWidth(initial: number) {
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(initial);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => {
      const measured = Math.floor(entry.contentRect.width);
      if (measured > 0) setWidth(measured);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [box, width] as const;
}

/**
 * One stacked bar per UTC day, one segment per model, drawn in plain SVG. Every segment has a title (hover and
 * screen readers), and the same numbers are in a table under the chart.
 */
export function UsageChart({
  title,
  buckets,
  startTime,
  endTime,
  measure,
  describe,
}: {
  title: string;
  buckets: UsageBucket[];
  startTime: number;
  endTime: number;
  measure: (bucket: UsageBucket) => number;
  describe: (value: number) => string;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  const [box, width] = useMeasuredWidth(640);
  const titleId = useId();
  const models = [...new Set(buckets.map((bucket) => bucket.model))].sort();
  const days: number[] = [];
  for (let time = Math.floor(startTime / day) * day; time < endTime; time += day) days.push(time);
  const byDay = new Map(days.map((time) => [time, [] as UsageBucket[]]));
  for (const bucket of buckets) byDay.get(Math.floor(bucket.time / day) * day)?.push(bucket);
  const dayTotals = days.map((time) => (byDay.get(time) ?? []).reduce((sum, bucket) => sum + measure(bucket), 0));
  const maximum = Math.max(1, ...dayTotals);
  const plotWidth = width - margin.left - margin.right;
  const plotHeight = height - margin.top - margin.bottom;
  const slot = plotWidth / Math.max(1, days.length);
  const barWidth = Math.max(4, slot * 0.6);
  const scale = (value: number) => (value / maximum) * plotHeight;
  const labelEvery = Math.ceil(days.length / Math.max(1, Math.floor(plotWidth / labelSpacing)));
  const caption = t("chart.caption", { title });

  return (
    <figure className="chart">
      <figcaption id={titleId}>{caption}</figcaption>
      <div ref={box} className="chart-canvas">
        <svg width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby={titleId}>
          <title>{caption}</title>
          <line
            x1={margin.left}
            x2={width - margin.right}
            y1={height - margin.bottom}
            y2={height - margin.bottom}
            stroke="currentColor"
          />
          <text x={margin.left - 6} y={margin.top + 4} textAnchor="end" fontSize={fontSize} fill="currentColor">
            {format.number(maximum)}
          </text>
          <text x={margin.left - 6} y={height - margin.bottom} textAnchor="end" fontSize={fontSize} fill="currentColor">
            {format.number(0)}
          </text>
          {days.map((time, dayIndex) => {
            const x = margin.left + dayIndex * slot + (slot - barWidth) / 2;
            let top = height - margin.bottom;
            return (
              <g key={time}>
                {models.map((model, modelIndex) => {
                  const bucket = byDay.get(time)?.find((candidate) => candidate.model === model);
                  const value = bucket ? measure(bucket) : 0;
                  if (value === 0) return null;
                  const segment = scale(value);
                  top -= segment;
                  return (
                    <rect
                      key={model}
                      x={x}
                      y={top}
                      width={barWidth}
                      height={segment}
                      fill={palette[modelIndex % palette.length]}
                    >
                      <title>{t("chart.segment", { day: format.utcDay(time), model, value: describe(value) })}</title>
                    </rect>
                  );
                })}
                {dayIndex % labelEvery === 0 && (
                  <text
                    x={x + barWidth / 2}
                    y={height - margin.bottom + 18}
                    textAnchor="middle"
                    fontSize={fontSize}
                    fill="currentColor"
                  >
                    {format.utcDay(time)}
                  </text>
                )}
              </g>
            );
          })}
        </svg>
      </div>
      <ul className="legend" aria-label={t("chart.legend", { title })}>
        {models.map((model, modelIndex) => (
          <li key={model}>
            <span className="swatch" style={{ background: palette[modelIndex % palette.length] }} aria-hidden="true" />
            {model}
          </li>
        ))}
      </ul>
      <details>
        <summary>{t("chart.asTable", { title })}</summary>
        <table>
          <thead>
            <tr>
              <th scope="col">{t("chart.day")}</th>
              <th scope="col">{t("chart.model")}</th>
              <th scope="col">{title}</th>
            </tr>
          </thead>
          <tbody>
            {buckets.map((bucket) => (
              <tr key={`${bucket.time}-${bucket.model}`}>
                <td>{format.utcDay(bucket.time)}</td>
                <td>{bucket.model}</td>
                <td>{describe(measure(bucket))}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
