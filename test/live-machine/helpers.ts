/**
 * Real processes for the orphans tests: a client (fixtures/client.mjs, or a shell pipeline for
 * real pipes) that starts a server, and the ways a client goes away (SIGKILL, SIGSTOP). Every
 * process carries this file's marker, so cleanup finds it by identity, never by name.
 */
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { identify, pollExit, readStat, type ProcIdentity } from '../../harness/observe/index.js';
import { killClient as killClientOf, launchClient } from '../support/clients.js';
import { until } from '../support/until.js';
import { signalIdentity } from '../../harness/containment/signal.js';

export const FIXTURES = join(import.meta.dirname, 'fixtures');
export const MARK_NAME = 'ORPHANS_TEST_MARK';
export const mark = randomUUID();

export interface Pair {
  client: ProcIdentity;
  server: ProcIdentity;
  child: ChildProcess;
}

/** Every live process carrying this test file's marker. */
export function marked(): ProcIdentity[] {
  const out: ProcIdentity[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (!readFileSync(`/proc/${name}/environ`, 'utf8').includes(`${MARK_NAME}=${mark}`)) continue;
      const id = identify(Number(name));
      const state = readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]?.[0];
      if (id && state !== 'Z') out.push(id);
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return out;
}

export async function cleanup(): Promise<void> {
  const ids = marked();
  for (const id of ids) signalIdentity(id, 'SIGKILL');
  await Promise.all(ids.map((id) => pollExit(id, { timeoutMs: 5000 })));
  await until('the test processes to end', () => marked().length === 0);
}

export function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = { ...process.env, [MARK_NAME]: mark, ...extra };
  delete e.CRASH_DRILL_RUN;
  return e;
}

/** fixtures/client.mjs running `command args`; resolves once the server said it is up. */
export function startPair(command: string, args: string[], extra: Record<string, string> = {}): Promise<Pair> {
  return launchClient(join(FIXTURES, 'client.mjs'), [command, ...args], {
    cwd: FIXTURES,
    env: env(extra),
    what: `${command} ${args.join(' ')}`,
    timeoutMs: 30_000,
  });
}

/** The fake server, or any command, under a client. */
export const serverPair = (extra: Record<string, string> = {}) => startPair('node', ['fake-mcp-server.mjs'], extra);

/** SIGKILL the client (test/support/clients.ts) and wait for its exit. */
export async function killClient(pair: Pair): Promise<void> {
  await killClientOf(pair);
}

/** SIGSTOP to the client, and back once the kernel shows it stopped (the signal is delivered when it next runs). */
export async function stopClient(pair: Pair): Promise<void> {
  signalIdentity(pair.client, 'SIGSTOP');
  await until(`client ${pair.client.pid} to be stopped`, () => stateOf(pair.client) === 'T');
}

function stateOf(id: ProcIdentity): string | undefined {
  const stat = readStat(id.pid);
  return stat?.startTime === id.startTime ? stat.state : undefined;
}

export function alive(id: ProcIdentity): boolean {
  try {
    const stat = readFileSync(`/proc/${id.pid}/stat`, 'utf8');
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(rest[19]) === id.startTime && rest[0] !== 'Z';
  } catch {
    return false;
  }
}
