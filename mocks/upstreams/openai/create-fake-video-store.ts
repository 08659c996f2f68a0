/** How a fake video task unfolds, counted in retrieves (GET /v1/videos/{id}), so tests need no clock. */
export interface FakeVideoTimeline {
  /** Retrieves answered `queued` first (default 1). */
  queuedPolls: number;
  /** Retrieves answered `in_progress` next, progress rising (default 1). */
  runningPolls: number;
  /** How it ends (default completed). A prompt containing `[fail]` fails whatever this says. */
  outcome: "completed" | "failed";
  /** Seconds reported on completion (default the requested seconds). */
  reportedSeconds?: number;
}

export interface FakeVideo {
  id: string;
  model: string;
  prompt: string;
  seconds: string;
  size: string;
  createdAt: number;
  remixedFromVideoId: string | null;
  /** The input_reference file part, if one was sent. */
  inputReference: { name: string; type: string; size: number } | null;
  timeline: FakeVideoTimeline;
  /** Epoch milliseconds of every retrieve, in order. */
  retrievals: number[];
  /** Set once the timeline reached its end (the answer stays the same afterwards). */
  completedAt: number | null;
}

/** What tests steer: the timeline of the next videos, polling faults, and tasks that vanish. */
export interface FakeVideoController {
  /** The timeline of videos created from now on (fields left out keep their defaults). */
  setTimeline(timeline: Partial<FakeVideoTimeline>): void;
  /** The next `times` retrieves answer this status (e.g. 429 with Retry-After 0) and leave the task as it is. */
  failRetrieves(status: number, times: number): void;
  /** The next `times` creates (and remixes) answer this status (e.g. 500). */
  failCreates(status: number, times: number): void;
  /** Forgets a video: its retrieves answer 404 from now on. */
  vanish(id: string): void;
  /** Every video created, in order. */
  list(): FakeVideo[];
  get(id: string): FakeVideo | undefined;
}

export interface FakeVideoStore extends FakeVideoController {
  create(video: Omit<FakeVideo, "timeline" | "retrievals" | "completedAt">): FakeVideo;
  takeRetrieveFault(): number | undefined;
  takeCreateFault(): number | undefined;
  isVanished(id: string): boolean;
  reset(): void;
}

const defaultTimeline: FakeVideoTimeline = { queuedPolls: 1, runningPolls: 1, outcome: "completed" };

export function createFakeVideoStore(): FakeVideoStore {
  const videos = new Map<string, FakeVideo>();
  const vanished = new Set<string>();
  let timeline = { ...defaultTimeline };
  const retrieveFaults = { status: 0, times: 0 };
  const createFaults = { status: 0, times: 0 };
  const take = (fault: { status: number; times: number }) => {
    if (fault.times <= 0) return undefined;
    fault.times -= 1;
    return fault.status;
  };
  return {
    setTimeline(next) {
      timeline = { ...defaultTimeline, ...next };
    },
    failRetrieves(status, times) {
      Object.assign(retrieveFaults, { status, times });
    },
    failCreates(status, times) {
      Object.assign(createFaults, { status, times });
    },
    vanish(id) {
      vanished.add(id);
    },
    list: () => [...videos.values()],
    get: (id) => (vanished.has(id) ? undefined : videos.get(id)),
    create(video) {
      const stored: FakeVideo = { ...video, timeline: { ...timeline }, retrievals: [], completedAt: null };
      if (video.prompt.includes("[fail]")) stored.timeline.outcome = "failed";
      videos.set(video.id, stored);
      return stored;
    },
    takeRetrieveFault: () => take(retrieveFaults),
    takeCreateFault: () => take(createFaults),
    isVanished: (id) => vanished.has(id),
    reset() {
      videos.clear();
      vanished.clear();
      timeline = { ...defaultTimeline };
      Object.assign(retrieveFaults, { status: 0, times: 0 });
      Object.assign(createFaults, { status: 0, times: 0 });
    },
  };
}
