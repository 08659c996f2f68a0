import type { FakeTaskBook } from "../shared/create-fake-task-book.js";

/** One content-generation task as the fake accepted it, with the settings it will report. */
export interface FakeContentTaskInput {
  model: string;
  prompt: string;
  resolution: string;
  ratio: string;
  /** Seconds, after `--frames` / `frames` took precedence. */
  duration: number;
  frames: number;
  seed: number;
  generateAudio: boolean;
  returnLastFrame: boolean;
  createdAt: number;
}

/** What the fake ARK keeps for video tasks; folded into the image fake's state when both land. */
export interface FakeContentTasks {
  tasks: FakeTaskBook<FakeContentTaskInput>;
  nextId(): string;
}
