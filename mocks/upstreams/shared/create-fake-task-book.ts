/** How many polls a new task spends in each phase before its outcome shows: counted, not timed, so tests never wait. */
export interface FakeTaskTimeline {
  queuedPolls: number;
  runningPolls: number;
}

export type FakeTaskPhase = "queued" | "running" | "done";

export interface FakeTask<Input> {
  id: string;
  input: Input;
  /** Epoch milliseconds of creation. */
  createdAt: number;
  /** Epoch milliseconds of every poll. */
  pollTimes: number[];
  timeline: FakeTaskTimeline;
  /** A vanished task is one the provider no longer knows (expired or deleted). */
  vanished: boolean;
}

/** The asynchronous tasks a fake provider keeps, with the timeline tests control. */
export interface FakeTaskBook<Input> {
  create(id: string, input: Input): FakeTask<Input>;
  /** Counts one poll; undefined for an unknown or vanished task. */
  poll(id: string): { task: FakeTask<Input>; phase: FakeTaskPhase } | undefined;
  get(id: string): FakeTask<Input> | undefined;
  /** For tasks created afterwards. */
  setTimeline(timeline: Partial<FakeTaskTimeline>): void;
  vanish(id: string): void;
  list(): Array<FakeTask<Input>>;
  clear(): void;
}

const defaultTimeline: FakeTaskTimeline = { queuedPolls: 1, runningPolls: 1 };

export function createFakeTaskBook<Input>(now: () => number): FakeTaskBook<Input> {
  const tasks = new Map<string, FakeTask<Input>>();
  let timeline = { ...defaultTimeline };
  return {
    create(id, input) {
      const task = { id, input, createdAt: now(), pollTimes: [], timeline: { ...timeline }, vanished: false };
      tasks.set(id, task);
      return task;
    },
    poll(id) {
      const task = tasks.get(id);
      if (task === undefined || task.vanished) return undefined;
      task.pollTimes.push(now());
      const count = task.pollTimes.length;
      const phase: FakeTaskPhase =
        count <= task.timeline.queuedPolls
          ? "queued"
          : count <= task.timeline.queuedPolls + task.timeline.runningPolls
            ? "running"
            : "done";
      return { task, phase };
    },
    get: (id) => tasks.get(id),
    setTimeline(partial) {
      timeline = { ...timeline, ...partial };
    },
    vanish(id) {
      const task = tasks.get(id);
      if (task) task.vanished = true;
    },
    list: () => [...tasks.values()],
    clear() {
      tasks.clear();
      timeline = { ...defaultTimeline };
    },
  };
}
