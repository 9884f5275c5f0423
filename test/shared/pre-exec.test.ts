/**
 * The client process's spawn of a profile that needs what Node's spawn cannot give
 * (harness/shared/pre-exec.pl): a group of its own, and a parent-death signal, each shown on a
 * real process; a profile that needs neither gets the server's own command.
 */
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { behaviourOf } from '../../harness/client-profiles/profiles.js';
import { signalIdentity } from '../../harness/containment/signal.js';
import { identify, type ProcIdentity } from '../../harness/observe/identity.js';
import { readStat } from '../../harness/observe/proc.js';
import { preExecCommand } from '../../harness/shared/pre-exec.js';
import { until } from '../support/until.js';

const started: ProcIdentity[] = [];
afterEach(() => {
  for (const id of started.splice(0)) signalIdentity(id, 'SIGKILL');
});

describe('preExecCommand', () => {
  it("ts-sdk: the server's own command", () => {
    expect(preExecCommand(behaviourOf('ts-sdk').spawn, 'node', ['s.js'])).toEqual(['node', ['s.js']]);
  });

  it("goose: the server leads a group of its own, and execs in the wrapper's place (the same pid)", async () => {
    const [command, args] = preExecCommand(behaviourOf('goose').spawn, 'sleep', ['30']);
    const child = spawn(command, args, { stdio: 'ignore' });
    const id = identify(child.pid!)!;
    started.push(id);
    await until('the exec', () => readStat(id.pid)?.comm === 'sleep', 5000);
    const stat = readStat(id.pid)!;
    expect(stat.pgid).toBe(id.pid);
    expect(stat.sid).toBe(readStat(process.pid)!.sid);
  });

  it("goose's parent-death SIGTERM: the server dies with its client, and lives on without it (codex)", async () => {
    const spawnUnder = (profile: 'goose' | 'codex') => {
      const [command, args] = preExecCommand(behaviourOf(profile).spawn, 'sleep', ['30']);
      // A client process in between, as the drill client is: it spawns the wrapper (naming itself as the parent it checks) and stays.
      const parentAt = args.indexOf(String(process.pid));
      const code = `const c = require('node:child_process').spawn(process.argv[1], JSON.parse(process.argv[2]).map((a, i) => (i === ${parentAt} ? String(process.pid) : a)), { stdio: 'ignore' }); console.log(c.pid); setInterval(() => {}, 1e6);`;
      const client = spawn(process.execPath, ['-e', code, command, JSON.stringify(args)], { stdio: ['ignore', 'pipe', 'ignore'] });
      return new Promise<{ client: ProcIdentity; server: ProcIdentity }>((resolve) =>
        client.stdout!.once('data', (d: Buffer) => resolve({ client: identify(client.pid!)!, server: identify(Number(String(d).trim()))! })),
      );
    };
    const goose = await spawnUnder('goose');
    const codex = await spawnUnder('codex');
    started.push(goose.server, goose.client, codex.server, codex.client);
    await until('both execs', () => readStat(goose.server.pid)?.comm === 'sleep' && readStat(codex.server.pid)?.comm === 'sleep', 5000);
    signalIdentity(goose.client, 'SIGKILL');
    signalIdentity(codex.client, 'SIGKILL');
    await until('the goose server to die', () => readStat(goose.server.pid) === null || readStat(goose.server.pid)!.state === 'Z', 5000);
    expect(readStat(codex.server.pid)?.state).not.toBe('Z');
  });
});
