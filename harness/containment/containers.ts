/**
 * Containment of the drill's containers by id and created time: stop, kill if it still runs, rm.
 * Without `--init`, PID 1 ignores SIGTERM and stop waits its full time.
 */
import { monoNow } from '../util/clock.js';
import type { ContainerTarget, ContainmentStep, Engine, EngineAction, UntargetedStep } from './step.js';

export const SIGKILL_EXIT = 137;

/** What container containment needs of an engine: its name, a command, an inspect (harness/containers/engine.ts's EngineClient is one). */
export interface ContainerEngine {
  readonly engine: Engine;
  run(args: string[], timeoutMs?: number): Promise<unknown>;
  /** The containers that still exist among ids (a removed one is left out). */
  inspect(ids: string[]): Promise<{ created: string; state: string; exitCode: number | null }[]>;
}

/** A container to contain, as a drill or a sweep found it (harness/containers/types.ts's ContainerRow is one). */
export type ContainerToContain = { id: string; name: string; image: string; created: string; state: string };

/** How containers are contained (callers: the drill's extension, harness/drill/executor/drill-containers.ts, and the sweep of dead runs, harness/containers/stale.ts). */
export type ContainerContainOptions = {
  /** How long `stop` gives the container's first process after SIGTERM before the engine's SIGKILL (ms, rounded up to whole seconds). */
  termWaitMs: number;
};

export type ContainerContainment = {
  id: string;
  name: string;
  image: string;
  created: string;
  endedBy: 'already-gone' | 'stop' | 'kill' | 'survived' | 'mismatch';
  /** docker stop's own SIGKILL after its timeout, or docker kill, was needed. */
  forced: boolean;
  exitCode: number | null;
  steps: ContainmentStep[];
};

export async function containContainers(engine: ContainerEngine, rows: ContainerToContain[], opts: ContainerContainOptions): Promise<ContainerContainment[]> {
  const { termWaitMs } = opts;
  const waitSec = Math.max(0, Math.ceil(termWaitMs / 1000));
  const records: ContainerContainment[] = [];
  for (const row of rows) {
    if (row.state === 'removed') continue;
    const record: ContainerContainment = {
      id: row.id,
      name: row.name,
      image: row.image,
      created: row.created,
      endedBy: 'survived',
      forced: false,
      exitCode: null,
      steps: [],
    };
    const target: ContainerTarget = { engine: engine.engine, id: row.id, name: row.name, created: row.created };
    const step = (what: UntargetedStep) => record.steps.push({ t: monoNow(), ...what, target } as ContainmentStep);
    const run = async (command: EngineAction, args: string[], timeoutMs?: number) => {
      step({ kind: 'engine', command, args, result: 'sent' });
      const out = await engine.run([command, ...args, row.id], timeoutMs).then(
        () => ({ result: 'done' as const }),
        (error: Error) => ({ result: 'failed' as const, reason: error.message.split('\n')[0] }),
      );
      step({ kind: 'engine', command, ...out });
    };
    const [now] = await engine.inspect([row.id]);
    if (!now) {
      step({ kind: 'inspect', result: 'gone' });
      record.endedBy = 'already-gone';
      records.push(record);
      continue;
    }
    if (now.created !== row.created) {
      step({ kind: 'inspect', result: 'mismatch', created: now.created });
      record.endedBy = 'mismatch';
      records.push(record);
      continue;
    }
    if (now.state !== 'running' && now.state !== 'paused' && now.state !== 'restarting') {
      record.endedBy = 'already-gone';
      record.exitCode = now.exitCode;
    } else {
      await run('stop', ['--time', String(waitSec)], (waitSec + 10) * 1000);
      let [after] = await engine.inspect([row.id]);
      if (after && after.state === 'running') {
        await run('kill', []);
        record.forced = true;
        [after] = await engine.inspect([row.id]);
        record.endedBy = after && after.state === 'running' ? 'survived' : 'kill';
      } else {
        record.endedBy = 'stop';
      }
      record.exitCode = after?.exitCode ?? null;
      if (record.exitCode === SIGKILL_EXIT) record.forced = true;
      step(after ? { kind: 'inspect', result: 'seen', state: after.state, exitCode: after.exitCode } : { kind: 'inspect', result: 'removed' });
    }
    // Exited containers of the drill (labelled, or tied to it by its engine CLI) are removed: the drill leaves nothing behind.
    if (record.endedBy !== 'survived') {
      const removed = await engine.run(['rm', '-f', row.id]).then(
        () => 'done' as const,
        () => 'gone' as const,
      );
      step({ kind: 'engine', command: 'rm', result: removed });
    }
    records.push(record);
  }
  return records;
}
