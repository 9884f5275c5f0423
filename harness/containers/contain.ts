/**
 * Containment of the drill's containers, by id and created time: re-inspect (a different
 * created time means it is not the container we attributed: left alone), `docker stop --time
 * <wait>` (SIGTERM to the container's first process, the engine's SIGKILL after the wait), then
 * `docker kill` if it still runs, then `docker rm` of what the drill's label left exited. Every
 * step is recorded with its time. Forced: the container ended by SIGKILL (exit code 137 after
 * stop), or needed docker kill. Without `--init`, a shell or a Node process without a SIGTERM
 * handler is PID 1 of the container, which ignores SIGTERM: issue 9 measured `docker stop`
 * taking its full 10 s there, and 0.05 s with `--init`.
 */
import { monoNow } from '../util/clock.js';
import type { EngineClient } from './engine.js';
import type { ContainerContainment, ContainerRow } from './types.js';

export const SIGKILL_EXIT = 137;

export async function containContainers(engine: EngineClient, rows: ContainerRow[], termWaitMs: number): Promise<ContainerContainment[]> {
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
    const step = (action: string) => record.steps.push({ t: monoNow(), action });
    const [now] = await engine.inspect([row.id]);
    if (!now) {
      step('inspect: gone');
      record.endedBy = 'already-gone';
      records.push(record);
      continue;
    }
    if (now.created !== row.created) {
      step(`inspect: created ${now.created}, not ${row.created}: left alone`);
      record.endedBy = 'mismatch';
      records.push(record);
      continue;
    }
    if (now.state !== 'running' && now.state !== 'paused' && now.state !== 'restarting') {
      record.endedBy = 'already-gone';
      record.exitCode = now.exitCode;
    } else {
      step(`${engine.engine} stop --time ${waitSec}: sent`);
      const stopped = await engine.run(['stop', '--time', String(waitSec), row.id], (waitSec + 10) * 1000).then(
        () => 'done',
        (error: Error) => `failed: ${error.message.split('\n')[0]}`,
      );
      step(`${engine.engine} stop: ${stopped}`);
      let [after] = await engine.inspect([row.id]);
      if (after && after.state === 'running') {
        step(`${engine.engine} kill: sent`);
        const killed = await engine.run(['kill', row.id]).then(
          () => 'done',
          (error: Error) => `failed: ${error.message.split('\n')[0]}`,
        );
        step(`${engine.engine} kill: ${killed}`);
        record.forced = true;
        [after] = await engine.inspect([row.id]);
        record.endedBy = after && after.state === 'running' ? 'survived' : 'kill';
      } else {
        record.endedBy = 'stop';
      }
      record.exitCode = after?.exitCode ?? null;
      if (record.exitCode === SIGKILL_EXIT) record.forced = true;
      step(after ? `state ${after.state}, exit code ${after.exitCode}` : 'removed by the engine (--rm)');
    }
    // Exited containers of the drill (labelled, or tied to it by its engine CLI) are removed: the drill leaves nothing behind.
    if (record.endedBy !== 'survived') {
      const removed = await engine.run(['rm', '-f', row.id]).then(
        () => 'done',
        () => 'gone already',
      );
      step(`${engine.engine} rm: ${removed}`);
    }
    records.push(record);
  }
  return records;
}
