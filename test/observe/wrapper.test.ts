import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { identify, procState, type ProcIdentity } from '../../harness/observe/identity.js';
import { readCmdline, readFdLink, readStat } from '../../harness/observe/proc.js';
import { signalIdentity } from '../../harness/containment/signal.js';
import { findRealServer, findRealServerNow, isLauncher, type ChainProcess } from '../../harness/observe/wrapper.js';
import { until } from '../support/until.js';
import { tempDir } from '../support/temp-dir.js';

/** Every process a test starts carries this marker, so cleanup finds the whole chain. */
const MARKER = 'WRAPPER_TEST_MARK';
const mark = randomUUID();

// A tiny stdio "server": says it is up on stderr, answers nothing, exits when stdin ends.
// With HELPER set it also starts a child that inherits its stdio (a tool's helper process).
const SERVER_JS = `#!/usr/bin/env node
const { spawn } = require('node:child_process');
if (process.env.HELPER) spawn(process.execPath, ['-e', 'process.stdin.resume(); process.stderr.write("helper-up\\\\n")'], { stdio: 'inherit' });
process.stdin.on('data', () => {});
process.stdin.on('end', () => process.exit(0));
process.stderr.write('server-up\\n');
`;

function markedNow(): ProcIdentity[] {
  const found: ProcIdentity[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (!readFileSync(`/proc/${name}/environ`, 'utf8').includes(`${MARKER}=${mark}`)) continue;
      const id = identify(Number(name));
      if (id !== null && procState(id) === 'alive') found.push(id);
    } catch {
      // gone between listing and reading
    }
  }
  return found;
}

afterEach(async () => {
  for (const id of markedNow()) signalIdentity(id, 'SIGKILL');
  await until('the test processes to exit', () => markedNow().length === 0);
});

function fixtureDir(): string {
  const dir = tempDir('wrapper-test-');
  const pkg = join(dir, 'tiny-mcp');
  mkdirSync(pkg);
  writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'tiny-mcp', version: '1.0.0', bin: { 'tiny-mcp': 'server.js' } }));
  writeFileSync(join(pkg, 'server.js'), SERVER_JS);
  chmodSync(join(pkg, 'server.js'), 0o755);
  return pkg;
}

/** Starts a subject the way the drill client does: stdio pipes, then waits for the lines on stderr. */
async function start(command: string, args: string[], cwd: string, want: string[], env: Record<string, string> = {}) {
  const child: ChildProcess = spawn(command, args, {
    cwd,
    env: { ...process.env, [MARKER]: mark, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  await until(`${want.join(', ')} from ${command} ${args.join(' ')} (stderr: ${stderr})`, () => want.every((w) => stderr.includes(w)), 30_000);
  const direct = identify(child.pid!);
  if (direct === null) throw new Error('the direct child is gone');
  return { child, direct };
}

function scriptOf(id: ProcIdentity): string[] {
  return readCmdline(id.pid) ?? [];
}

describe('isLauncher', () => {
  it('knows launchers, including npm after it rewrote its process title', () => {
    expect(isLauncher(['sh', '-c', 'node s.js'])).toBe(true);
    expect(isLauncher(['/bin/bash', '-c', 'x'])).toBe(true);
    expect(isLauncher(['/usr/bin/env', 'FOO=1', 'node', 's.js'])).toBe(true);
    expect(isLauncher(['npm exec @modelcontextprotocol/server-memory', '', ''])).toBe(true);
    expect(isLauncher(['uvx', 'mcp-server-fetch'])).toBe(true);
    expect(isLauncher(['node', '/usr/lib/node_modules/npm/bin/npx-cli.js', 'pkg'])).toBe(true);
  });

  it('does not call servers launchers', () => {
    expect(isLauncher(['node', 'dist/index.js'])).toBe(false);
    expect(isLauncher(['python3', '-m', 'server'])).toBe(false);
    expect(isLauncher(['/root/.npm/_npx/x/node_modules/.bin/mcp-server-memory'])).toBe(false);
    expect(isLauncher(['node', 'scripts/sh'])).toBe(false);
    expect(isLauncher([])).toBe(false);
  });
});

describe('findRealServer on a given chain', () => {
  const links: Record<string, string> = {
    '10:0': 'pipe:[1]',
    '10:1': 'pipe:[2]',
    '11:0': 'pipe:[1]',
    '11:1': 'pipe:[2]',
    '12:0': 'pipe:[1]',
    '12:1': 'pipe:[2]',
  };
  const readFd = (pid: number, fd: number) => links[`${pid}:${fd}`] ?? null;

  it('skips a pid whose start time is older than the direct child (a reused ppid)', () => {
    const chain: ChainProcess[] = [
      { pid: 10, startTime: 500, ppid: 1, cmdline: ['sh', '-c', 'node s.js'] },
      { pid: 11, startTime: 400, ppid: 10, cmdline: ['node', 's.js'] },
    ];
    expect(findRealServer(chain, { pid: 10, startTime: 500 }, readFd)).toEqual({ pid: 10, startTime: 500 });
    chain[1]!.startTime = 501;
    expect(findRealServer(chain, { pid: 10, startTime: 500 }, readFd)).toEqual({ pid: 11, startTime: 501 });
  });

  it('returns the deepest launcher when no non-launcher shares the pipes yet', () => {
    const chain: ChainProcess[] = [
      { pid: 10, startTime: 500, ppid: 1, cmdline: ['npm exec x'] },
      { pid: 11, startTime: 501, ppid: 10, cmdline: ['sh', '-c', 'x'] },
    ];
    expect(findRealServer(chain, { pid: 10, startTime: 500 }, readFd)).toEqual({ pid: 11, startTime: 501 });
  });
});

describe('findRealServer on real process chains', () => {
  it("sh -c 'exec node server.js': the direct child itself is the server", async () => {
    const pkg = fixtureDir();
    const { direct } = await start('sh', ['-c', 'exec node server.js'], pkg, ['server-up']);
    const found = findRealServerNow(direct);
    expect(found).toEqual(direct);
    expect(scriptOf(found)).toEqual(['node', 'server.js']);
  });

  it("sh -c 'node server.js; exit $?': sh stays, the node below it is the server", async () => {
    const pkg = fixtureDir();
    const { direct } = await start('sh', ['-c', 'node server.js; exit $?'], pkg, ['server-up']);
    expect(scriptOf(direct)[0]).toBe('sh');
    const found = findRealServerNow(direct);
    expect(found).not.toEqual(direct);
    expect(scriptOf(found)).toEqual(['node', 'server.js']);
    expect(readStat(found.pid)?.ppid).toBe(direct.pid);
  });

  it('ignores a sibling with other stdio and a helper that inherited the server stdio', async () => {
    const pkg = fixtureDir();
    // The sibling is started first and has its own stdio: it shares the marker, not the pipes.
    const { direct } = await start(
      'sh',
      ['-c', 'node -e "process.stderr.write(\'sibling-up\\n\'); setInterval(() => {}, 1000)" </dev/null >/dev/null & node server.js; exit $?'],
      pkg,
      ['sibling-up', 'server-up', 'helper-up'],
      { HELPER: '1' },
    );
    const found = findRealServerNow(direct);
    expect(scriptOf(found)).toEqual(['node', 'server.js']);
    // Both ways: the helper is deeper and shares the pipes, and still is not the server.
    const helper = markedNow().find((id) => readStat(id.pid)?.ppid === found.pid);
    expect(helper).toBeDefined();
    expect(readFdLink(helper!.pid, 0)).toBe(readFdLink(direct.pid, 0));
  });

  it('npx --yes --offline <folder>: the node running the bin script, below npm exec and sh', async () => {
    const pkg = fixtureDir();
    const { direct } = await start('npx', ['--yes', '--offline', pkg], pkg, ['server-up']);
    // npm rewrites its title: the direct child shows as `npm exec <folder>`.
    expect(isLauncher(scriptOf(direct))).toBe(true);
    const found = findRealServerNow(direct);
    const argv = scriptOf(found);
    expect(argv[0]).toBe('node');
    expect(argv[1]).toMatch(/tiny-mcp$/);
    // The server really is on the client's pipes: closing stdin ends it (and only then the chain).
    expect(readFdLink(found.pid, 0)).toBe(readFdLink(direct.pid, 0));
    expect(readFdLink(found.pid, 0)).toMatch(/^(pipe|socket):\[\d+\]$/);
  });

  it('returns the direct child when it is gone', async () => {
    const pkg = fixtureDir();
    const { child, direct } = await start('node', ['server.js'], pkg, ['server-up']);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.stdin!.end();
    await exited;
    expect(findRealServerNow(direct)).toEqual(direct);
  });
});
