import type { FakeTaskBook } from "../shared/create-fake-task-book.js";

/** One video-synthesis task as the fake accepted it. */
export interface FakeDashscopeVideoInput {
  model: string;
  prompt: string;
  /** 480, 720 or 1080 (the `SR` the usage reports). */
  resolution: number;
  /** Output seconds. */
  duration: number;
  /** Seconds of the source video (edit models), else 0. */
  inputDuration: number;
  submitTime: string;
}

/** What the fake DashScope keeps for video tasks; folded into the image fake's state when both land. */
export interface FakeDashscopeVideoTasks {
  tasks: FakeTaskBook<FakeDashscopeVideoInput>;
  nextId(): string;
}
