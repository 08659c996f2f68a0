import type { UsageBucket } from "../api/management-types";

// Colour-blind-safe palette (Okabe–Ito); models past the eighth reuse it, their names are in the legend and titles.
const palette = ["#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00", "#f0e442", "#000000"];
const day = 86_400;
const width = 640;
const height = 220;
const margin = { top: 12, right: 8, bottom: 28, left: 56 };

const utcDay = (unixSeconds: number) => new Date(unixSeconds * 1000).toISOString().slice(0, 10);

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
  const labelEvery = Math.ceil(days.length / 8);
  const titleId = `chart-${title.replace(/\W+/g, "-").toLowerCase()}`;

  return (
    <figure className="chart">
      <figcaption id={titleId}>{title} per day (UTC) and model</figcaption>
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby={titleId}>
        <title>{`${title} per day (UTC) and model`}</title>
        <line
          x1={margin.left}
          x2={width - margin.right}
          y1={height - margin.bottom}
          y2={height - margin.bottom}
          stroke="#57606a"
        />
        <text x={margin.left - 6} y={margin.top + 4} textAnchor="end" fontSize="11">
          {maximum.toLocaleString("en-US")}
        </text>
        <text x={margin.left - 6} y={height - margin.bottom} textAnchor="end" fontSize="11">
          0
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
                    <title>{`${utcDay(time)} ${model}: ${describe(value)}`}</title>
                  </rect>
                );
              })}
              {dayIndex % labelEvery === 0 && (
                <text x={x + barWidth / 2} y={height - margin.bottom + 16} textAnchor="middle" fontSize="11">
                  {utcDay(time).slice(5)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <ul className="legend" aria-label={`${title} legend`}>
        {models.map((model, modelIndex) => (
          <li key={model}>
            <span className="swatch" style={{ background: palette[modelIndex % palette.length] }} aria-hidden="true" />
            {model}
          </li>
        ))}
      </ul>
      <details>
        <summary>{title} as a table</summary>
        <table>
          <thead>
            <tr>
              <th scope="col">Day (UTC)</th>
              <th scope="col">Model</th>
              <th scope="col">{title}</th>
            </tr>
          </thead>
          <tbody>
            {buckets.map((bucket) => (
              <tr key={`${bucket.time}-${bucket.model}`}>
                <td>{utcDay(bucket.time)}</td>
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
