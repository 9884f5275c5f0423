/**
 * A harness elsewhere, as far as the run registry can tell: a Node process that registers runs
 * with the built registry (dist/harness/registry/) and holds them until its stdin ends or it is
 * killed. In a private PID namespace (pid-namespace.ts) it is another namespace's harness.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { packageRoot } from '../../harness/util/paths.js';
import { identify, readStat, listPids, type ProcIdentity } from '../../harness/observe/index.js';
import type { Cleanup } from './cleanup.js';
import { start, type Proc } from '../observe/helpers.js';
import { UNSHARE } from './pid-namespace.js';

export type Registrant = Proc & { harness: ProcIdentity };

export async function startRegistrant(cleanup: Cleanup, runIds: string[], opts: { namespace?: boolean } = {}): Promise<Registrant> {
  const registry = pathToFileURL(join(packageRoot(), 'dist/harness/registry/index.js')).href;
  const script = `const m = await import(${JSON.stringify(registry)}); for (const id of ${JSON.stringify(runIds)}) m.registerRun(id); console.log('registered'); process.stdin.resume(); process.stdin.on('end', () => process.exit(0));`;
  const argv = [process.execPath, '--input-type=module', '-e', script];
  const proc = opts.namespace ? start(cleanup, UNSHARE[0]!, [...UNSHARE.slice(1), ...argv]) : start(cleanup, argv[0]!, argv.slice(1));
  const line = await proc.nextLine();
  if (line !== 'registered') throw new Error(`the registrant said ${line}`);
  // In a namespace the registering Node is unshare's child (its pid here, not the one it registered).
  const harness = opts.namespace ? cleanup.track(listPids().find((pid) => readStat(pid)?.ppid === proc.id.pid) ?? null) : identify(proc.id.pid);
  if (!harness) throw new Error('the registrant is gone');
  return { ...proc, harness };
}
