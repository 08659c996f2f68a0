export interface PrometheusSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface PrometheusExposition {
  /** Metric family name → its TYPE (counter, gauge, histogram, summary, untyped). */
  types: Map<string, string>;
  samples: PrometheusSample[];
}

const sampleLine = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})?\s+(\S+)(\s+-?\d+)?$/;
const labelPair = /\s*([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*(,|$)/y;

/**
 * A strict reader of the Prometheus text exposition format 0.0.4: HELP and TYPE comments, samples with escaped
 * label values, special float values. Any line it cannot read throws, so a malformed scrape fails the test.
 */
export function parsePrometheusText(text: string): PrometheusExposition {
  const types = new Map<string, string>();
  const samples: PrometheusSample[] = [];
  for (const [index, line] of text.split("\n").entries()) {
    if (line.trim() === "") continue;
    if (line.startsWith("#")) {
      const [, keyword, name, rest] = /^#\s+(\S+)\s+(\S+)\s*(.*)$/.exec(line) ?? [];
      if (keyword === "TYPE") {
        if (!["counter", "gauge", "histogram", "summary", "untyped"].includes(rest ?? "")) {
          throw new Error(`line ${index + 1}: unknown metric type in "${line}"`);
        }
        if (types.has(name!)) throw new Error(`line ${index + 1}: second TYPE for ${name}`);
        types.set(name!, rest!);
      }
      continue;
    }
    const match = sampleLine.exec(line);
    if (!match) throw new Error(`line ${index + 1}: not a sample: "${line}"`);
    const [, name, , labelText, valueText] = match;
    samples.push({
      name: name!,
      labels: parseLabels(labelText ?? "", index + 1),
      value: parseValue(valueText!, index + 1),
    });
  }
  return { types, samples };
}

function parseLabels(text: string, lineNumber: number): Record<string, string> {
  const labels: Record<string, string> = {};
  labelPair.lastIndex = 0;
  while (labelPair.lastIndex < text.length) {
    const match = labelPair.exec(text);
    if (!match) throw new Error(`line ${lineNumber}: bad labels "${text}"`);
    labels[match[1]!] = match[2]!.replace(/\\(["\\n])/g, (_escape, character: string) =>
      character === "n" ? "\n" : character,
    );
  }
  return labels;
}

function parseValue(text: string, lineNumber: number): number {
  if (text === "+Inf") return Number.POSITIVE_INFINITY;
  if (text === "-Inf") return Number.NEGATIVE_INFINITY;
  // prom-client writes NaN as "Nan" (an event-loop lag mean with no samples yet, between two close scrapes).
  if (text === "NaN" || text === "Nan") return Number.NaN;
  const value = Number(text);
  if (Number.isNaN(value)) throw new Error(`line ${lineNumber}: bad value "${text}"`);
  return value;
}
