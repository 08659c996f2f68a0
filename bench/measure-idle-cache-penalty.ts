import { setTimeout as sleep } from "node:timers/promises";

export interface IdleGapTiming {
  /** Idle time before each measurement; 0 = back to back (only a setImmediate between). */
  gapMs: number;
  /** Median time of one walk over memory that was warm before the gap. */
  memoryWalkMicroseconds: number;
  /** Median time of an arithmetic loop that touches no memory, measured right after the walk. */
  arithmeticMicroseconds: number;
}

const objectCount = 200_000;
const stride = 16;
const arithmeticRounds = 20_000;
const repetitions = 60;

function medianOf(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[sorted.length >> 1]!;
}

function walkMemory(objects: ReadonlyArray<{ index: number; label: string }>): number {
  let total = 0;
  for (let index = 0; index < objects.length; index += stride)
    total += objects[index]!.index + objects[index]!.label.length;
  return total;
}

function loopArithmetic(): number {
  let value = 1;
  for (let round = 0; round < arithmeticRounds; round += 1) value = (value * 31 + round) | 0;
  return value;
}

/** The walks' results end up here, where the compiler cannot prove them unused and drop the work. */
let checksum = 0;

function elapsedMicroseconds(work: () => number): number {
  const startedAt = process.hrtime.bigint();
  checksum ^= work();
  return Number(process.hrtime.bigint() - startedAt) / 1000;
}

/**
 * What an idle gap costs this machine: the same walk over memory (every 16th of 200,000 small objects, so a few
 * MiB and ~12,500 cache lines) timed back to back and after 2 and 20 ms of sleep, next to an arithmetic loop that
 * touches no memory. On a virtual CPU that halts when idle, a neighbour may run on the core meanwhile and take the
 * caches; the walk then pays a trip to memory per line while the arithmetic loop runs at its usual speed. Every
 * process of the one-connection, 20 ms points pays that on each request, in proportion to the memory it touches.
 */
export async function measureIdleCachePenalty(gapsMs: readonly number[] = [0, 2, 20]): Promise<IdleGapTiming[]> {
  const objects = Array.from({ length: objectCount }, (_, index) => ({ index, label: `object ${index}` }));
  // Compiled and warm before anything is timed.
  for (let warmUp = 0; warmUp < 500; warmUp += 1) checksum ^= walkMemory(objects) ^ loopArithmetic();
  const timings: IdleGapTiming[] = [];
  for (const gapMs of gapsMs) {
    const walks: number[] = [];
    const loops: number[] = [];
    for (let repetition = 0; repetition < repetitions; repetition += 1) {
      if (gapMs > 0) await sleep(gapMs);
      else await new Promise((resolve) => setImmediate(resolve));
      walks.push(elapsedMicroseconds(() => walkMemory(objects)));
      loops.push(elapsedMicroseconds(loopArithmetic));
    }
    timings.push({ gapMs, memoryWalkMicroseconds: medianOf(walks), arithmeticMicroseconds: medianOf(loops) });
  }
  return timings;
}
