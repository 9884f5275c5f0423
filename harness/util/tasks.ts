/**
 * A run's resources as tasks (after Playwright's runner/taskRunner.ts and tasks.ts): each is set
 * up in order and, once set up, torn down in reverse order, also when a later setup or the body
 * throws. A teardown that throws does not keep the others from running; the body's error wins,
 * else the first teardown's.
 */
export interface Task {
  title: string;
  setup?(): void | Promise<void>;
  teardown?(): void | Promise<void>;
}

export async function withTasks<T>(tasks: readonly Task[], body: () => Promise<T>): Promise<T> {
  const setUp: Task[] = [];
  let outcome: { value: T } | { error: unknown };
  try {
    for (const task of tasks) {
      await task.setup?.();
      setUp.push(task);
    }
    outcome = { value: await body() };
  } catch (error) {
    outcome = { error };
  }
  let teardownError: { error: unknown } | null = null;
  for (const task of setUp.reverse()) {
    try {
      await task.teardown?.();
    } catch (error) {
      teardownError ??= { error };
    }
  }
  if ('error' in outcome) throw outcome.error;
  if (teardownError) throw teardownError.error;
  return outcome.value;
}
