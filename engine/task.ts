import type { Engine } from './engine.js';
import { describeWeftArgument } from './argument-checks.js';
import { assertEngineDevice } from './engine.js';
import { EngineError } from './engine-errors.js';

/**
 * A unit of frame work. `record()` does every allocation (pipelines, buffers, bind groups, draw
 * lists); `execute()` only writes uniforms and encodes draws, so a steady frame allocates nothing.
 */
export interface Task {
  readonly name: string;
  /** True when the scene, device or target changed since the last `record()`. */
  needsRecord(): boolean;
  /** Allocates what the next `execute()` needs (pipelines, buffers, bind groups, draw lists); `runTasks` calls it. */
  record(): void;
  /** Writes uniforms and encodes the draws into `encoder`; creates nothing. */
  execute(encoder: GPUCommandEncoder): void;
  /** Frees the task's GPU objects (the same as `disposeTask(task)`). */
  dispose(): void;
}

/** Frees a task's GPU objects (the standalone form of `task.dispose()`, matching every `create*Task`). */
export function disposeTask(task: Task): void {
  task.dispose();
}

function isTask(task: unknown): boolean {
  return typeof (task as Task | null)?.needsRecord === 'function' && typeof (task as Task).execute === 'function';
}

function checkTasks(tasks: readonly Task[]): void {
  if (!Array.isArray(tasks))
    throw new EngineError(
      'runTasks',
      'bad-option',
      `tasks is ${describeWeftArgument(tasks)}; pass an array of tasks (create*Task), e.g. runTasks(engine, [task])`,
    );
  for (let i = 0; i < tasks.length; i++)
    if (!isTask(tasks[i]))
      throw new EngineError(
        'runTasks',
        'bad-option',
        `tasks[${i}] is ${describeWeftArgument(tasks[i])}; each entry must be a task made by a create*Task function`,
      );
}

/**
 * Records what needs it, executes the tasks in order into one submission; false while the device recovers.
 * @throws {EngineError} `device-lost` when a host-owned device was lost and no replacement was handed over;
 * `bad-option` when `engine` is not an Engine or `tasks` is not an array of tasks (a single task goes in `[task]`)
 */
export function runTasks(engine: Engine, tasks: readonly Task[]): boolean {
  assertEngineDevice(engine, 'runTasks');
  checkTasks(tasks);
  if (engine.recovery) return false;
  for (const task of tasks) if (task.needsRecord()) task.record();
  const encoder = engine.device.createCommandEncoder({ label: `${engine.label}:frame` });
  for (const task of tasks) task.execute(encoder);
  engine.device.queue.submit([encoder.finish()]);
  return true;
}
