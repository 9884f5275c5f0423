/** A run's tasks (harness/util/tasks.ts): set up in order, torn down in reverse, also after a failure. */
import { describe, expect, it } from 'vitest';
import { type Task, withTasks } from '../../harness/util/tasks.js';

function recording(log: string[], titles: string[], fail: { setup?: string; teardown?: string } = {}): Task[] {
  return titles.map((title) => ({
    title,
    setup: () => {
      log.push(`setup ${title}`);
      if (fail.setup === title) throw new Error(`setup ${title} failed`);
    },
    teardown: () => {
      log.push(`teardown ${title}`);
      if (fail.teardown === title) throw new Error(`teardown ${title} failed`);
    },
  }));
}

describe('withTasks', () => {
  it('sets up in order, runs the body, tears down in reverse and returns what the body returns', async () => {
    const log: string[] = [];
    const value = await withTasks(recording(log, ['a', 'b', 'c']), async () => {
      log.push('body');
      return 7;
    });
    expect(value).toBe(7);
    expect(log).toEqual(['setup a', 'setup b', 'setup c', 'body', 'teardown c', 'teardown b', 'teardown a']);
  });

  it('after a failed setup, tears down only what was set up, and throws the setup error', async () => {
    const log: string[] = [];
    const run = withTasks(recording(log, ['a', 'b', 'c'], { setup: 'b' }), async () => log.push('body'));
    await expect(run).rejects.toThrow(/^setup b failed$/);
    expect(log).toEqual(['setup a', 'setup b', 'teardown a']);
  });

  it("after the body throws, tears everything down and throws the body's error, not a teardown's", async () => {
    const log: string[] = [];
    const run = withTasks(recording(log, ['a', 'b'], { teardown: 'b' }), async () => {
      throw new Error('body failed');
    });
    await expect(run).rejects.toThrow(/^body failed$/);
    expect(log).toEqual(['setup a', 'setup b', 'teardown b', 'teardown a']);
  });

  it("a teardown that throws does not keep the others from running; its error is the run's when nothing else failed", async () => {
    const log: string[] = [];
    const run = withTasks(recording(log, ['a', 'b', 'c'], { teardown: 'b' }), async () => 1);
    await expect(run).rejects.toThrow(/^teardown b failed$/);
    expect(log).toEqual(['setup a', 'setup b', 'setup c', 'teardown c', 'teardown b', 'teardown a']);
  });
});
