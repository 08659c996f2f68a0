import fs from "node:fs";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}

interface CpuProfile {
  startTime: number;
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileEntry {
  name: string;
  /** Milliseconds spent in the entry itself. */
  selfMs: number;
  /** Milliseconds spent in it and everything it called (recursion counted once). */
  totalMs?: number;
}

export interface CpuProfileSummary {
  /** Sampled time, idle excluded, in milliseconds. */
  busyMs: number;
  idleMs: number;
  functions: ProfileEntry[];
  packages: ProfileEntry[];
}

const pseudoFrames = new Set(["(root)", "(program)", "(idle)", "(garbage collector)"]);

/** Where a frame's code lives: an npm package, node's core, a folder of our src/, or a V8 pseudo-frame. */
export function classifyFrame(functionName: string, url: string): string {
  if (pseudoFrames.has(functionName)) return functionName;
  const modulePath = url.split("/node_modules/").at(-1)!;
  if (url.includes("/node_modules/")) {
    const parts = modulePath.split("/");
    return parts[0]!.startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0]!;
  }
  if (url.startsWith("node:")) return "node core";
  const source = /\/(src|mocks|generated)\/(.*)$/.exec(url);
  if (source) {
    const folder = source[2]!.includes("/") ? source[2]!.split("/")[0] : source[2];
    return `gateway ${source[1]}/${folder}`;
  }
  return url === "" ? "V8 builtins / native" : url;
}

function describeFrame(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  if (pseudoFrames.has(functionName)) return functionName;
  const shortUrl = url
    .replace(/^file:\/\//, "")
    .replace(/^.*\/node_modules\//, "")
    .replace(/^.*\/(dist\/)?(src|mocks|generated)\//, "$2/");
  return `${functionName || "(anonymous)"} ${shortUrl || "(native)"}${url ? `:${lineNumber + 1}` : ""}`;
}

/** A span of CLOCK_MONOTONIC in microseconds, the clock of both V8 sample timestamps and process.hrtime. */
export interface MonotonicWindow {
  startMicroseconds: number;
  endMicroseconds: number;
}

/**
 * Aggregates a V8 .cpuprofile (node --cpu-prof) by function and by package, self time first. With `window`, only
 * samples taken inside it count, which keeps start-up (spec loading, schema compilation) out of a load profile.
 */
export function summariseCpuProfile(file: string, window?: MonotonicWindow): CpuProfileSummary {
  const profile = JSON.parse(fs.readFileSync(file, "utf8")) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfByNode = new Map<number, number>();
  // timeDeltas[i] is the time between sample i-1 and sample i; the time up to the next sample belongs to sample i.
  let sampledAt = profile.startTime;
  for (let index = 0; index < profile.samples.length; index += 1) {
    sampledAt += profile.timeDeltas[index] ?? 0;
    if (window && (sampledAt < window.startMicroseconds || sampledAt > window.endMicroseconds)) continue;
    const delta = (profile.timeDeltas[index + 1] ?? 0) / 1000;
    selfByNode.set(profile.samples[index]!, (selfByNode.get(profile.samples[index]!) ?? 0) + delta);
  }

  const functionSelf = new Map<string, number>();
  const functionTotal = new Map<string, number>();
  const packageSelf = new Map<string, number>();
  const packageTotal = new Map<string, number>();
  const packagesOnStack = new Set<string>();
  let idleMs = 0;
  let busyMs = 0;

  // Depth-first from the root, carrying the functions already on the stack so recursion is counted once.
  const visit = (nodeId: number, onStack: Set<string>): number => {
    const node = byId.get(nodeId)!;
    const key = describeFrame(node);
    const self = selfByNode.get(nodeId) ?? 0;
    if (node.callFrame.functionName === "(idle)") idleMs += self;
    else if (node.callFrame.functionName !== "(root)") busyMs += self;
    functionSelf.set(key, (functionSelf.get(key) ?? 0) + self);
    const packageName = classifyFrame(node.callFrame.functionName, node.callFrame.url);
    packageSelf.set(packageName, (packageSelf.get(packageName) ?? 0) + self);
    const alreadyOnStack = onStack.has(key);
    if (!alreadyOnStack) onStack.add(key);
    const packageAlreadyOnStack = packagesOnStack.has(packageName);
    if (!packageAlreadyOnStack) packagesOnStack.add(packageName);
    let total = self;
    for (const child of node.children ?? []) total += visit(child, onStack);
    if (!alreadyOnStack) {
      onStack.delete(key);
      functionTotal.set(key, (functionTotal.get(key) ?? 0) + total);
    }
    if (!packageAlreadyOnStack) {
      packagesOnStack.delete(packageName);
      packageTotal.set(packageName, (packageTotal.get(packageName) ?? 0) + total);
    }
    return total;
  };
  visit(profile.nodes[0]!.id, new Set());

  const skip = (name: string) => name === "(idle)" || name === "(root)";
  const functions = [...functionSelf]
    .filter(([name]) => !skip(name))
    .map(([name, selfMs]) => ({ name, selfMs, totalMs: functionTotal.get(name) }))
    .sort((left, right) => right.selfMs - left.selfMs);
  const packages = [...packageSelf]
    .filter(([name]) => !skip(name))
    .map(([name, selfMs]) => ({ name, selfMs, totalMs: packageTotal.get(name) }))
    .sort((left, right) => right.selfMs - left.selfMs);
  return { busyMs, idleMs, functions, packages };
}
