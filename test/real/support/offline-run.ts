/**
 * The real CLI run over a folder of scenarios inside `unshare -n` (`-rn` when not root), with
 * loopback brought up first: the real servers it drills reach nothing but loopback, the drill
 * remote included. The run must print nothing on stderr; its results.json is what it returns.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { RunResults } from '../../../harness/results/types.js';
import { packageRoot } from '../../../harness/util/paths.js';
import { CLI, collect } from '../../support/cli.js';
import { unshareArgs } from './native-servers.js';

/** Drills every scenario in `dir` offline, the report in `out`; `args` are more of the CLI's options. */
export async function drillOffline(dir: string, out: string, args: string[] = []): Promise<RunResults> {
  const cli = [process.execPath, CLI, 'run', dir, '--out', out, ...args].map((a) => JSON.stringify(a)).join(' ');
  const child = spawn('unshare', [...unshareArgs()!, 'sh', '-c', `ip link set lo up && exec ${cli}`], {
    cwd: packageRoot(),
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const run = await collect(child);
  expect(run.stderr).toBe('');
  return JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as RunResults;
}
