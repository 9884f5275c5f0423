import { readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { classifyFd, identify, inventory, listPids, readStat } from '../../harness/observe/index.js';
import { parseTcpTable, parseUnixTable } from '../../harness/observe/net.js';
import { envWith, FIXTURES, start } from './helpers.js';
import { Cleanup } from '../support/cleanup.js';
import { until } from '../support/until.js';
import { tempDir } from '../support/temp-dir.js';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

let server: net.Server;
let port: number;
let dir: string;
const peers: net.Socket[] = [];
beforeAll(async () => {
  dir = tempDir('observe-inv-');
  server = net.createServer((s) => peers.push(s));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as net.AddressInfo).port;
});
afterAll(async () => {
  for (const s of peers) s.destroy();
  await new Promise((r) => server.close(r));
  rmSync(dir, { recursive: true, force: true });
});

describe('inventory', () => {
  it('lists stdio, a loopback TCP connection, a Unix socket and which variables hold the secret, never the secret', async () => {
    const secret = `tok-${Math.random().toString(36).slice(2)}-SECRET`;
    const sock = join(dir, 'helper.sock');
    const p = start(cleanup, process.execPath, [`${FIXTURES}holds-sockets.mjs`, '127.0.0.1', String(port), sock, `--token=${secret}`], {
      stdio: ['pipe', 'pipe', 'ignore'],
      env: envWith({ CRASH_DRILL_TOKEN: secret, API_AUTH: `Bearer ${secret}`, HARMLESS: 'nothing' }),
    });
    expect(await p.nextLine()).toBe('ready');
    const row = inventory(p.id, { secrets: [{ value: secret, from: '' }], foundBy: ['env-marker'] })!;

    expect(row).toMatchObject({ pid: p.id.pid, startTime: p.id.startTime, ppid: process.pid, foundBy: ['env-marker'] });
    expect(row.state).toMatch(/^[RS]$/);
    expect(row.elapsedMs).toBeGreaterThanOrEqual(0);
    expect(row.elapsedMs).toBeLessThan(60_000);
    // Node's child_process 'pipe' is a Unix socketpair (libuv), not a pipe(2).
    expect(row.fds.map((f) => [f.fd, f.kind])).toEqual([
      [0, 'socket'],
      [1, 'socket'],
      [2, 'file'],
    ]);
    expect(row.fds[2]!.target).toBe('/dev/null');
    expect(row.tcp).toContainEqual({ local: expect.stringMatching(/^127\.0\.0\.1:\d+$/), remote: `127.0.0.1:${port}`, state: 'ESTABLISHED' });
    expect(row.unix.map((u) => u.path)).toContain(sock);
    expect(row.credential.present).toBe(true);
    expect(row.credential.vars).toEqual(expect.arrayContaining(['CRASH_DRILL_TOKEN', 'API_AUTH', 'argv[5]']));
    expect(row.credential.vars).not.toContain('HARMLESS');
    expect(row.cmdline[5]).toBe('--token=[redacted]');
    expect(JSON.stringify(row)).not.toContain(secret);

    // The other way: with no secret to look for, nothing is flagged.
    const plain = inventory(p.id, { secrets: [] })!;
    expect(plain.credential).toEqual({ present: false, vars: [] });
  });

  it('returns null for a gone process or a reused pid', async () => {
    const p = start(cleanup, 'sleep', ['300'], { stdio: 'ignore' });
    expect(inventory({ pid: p.id.pid, startTime: p.id.startTime + 1 }, { secrets: [] })).toBeNull();
    const exited = new Promise((r) => p.child.once('exit', r));
    p.child.kill('SIGKILL');
    await exited;
    expect(inventory(p.id, { secrets: [] })).toBeNull();
  });

  it('sees a real pipe(2) as a pipe and a closed fd as absent', async () => {
    // `sleep` writes into a shell pipe; stdin is closed by the shell's <&- redirection.
    const p = start(cleanup, 'sh', ['-c', 'sleep 300 <&- | cat'], { stdio: 'ignore' });
    // The shell forks asynchronously: wait for the condition, not for a time. A sleep that is
    // named `sleep` may still be in its dynamic loader, with /etc/ld.so.cache open on its
    // lowest free descriptor (0); its descriptors are settled once it sleeps in nanosleep.
    const sleeping = (pid: number) => {
      try {
        return readFileSync(`/proc/${pid}/wchan`, 'utf8').includes('nanosleep');
      } catch {
        return false;
      }
    };
    const isSleeper = (pid: number) => readStat(pid)?.ppid === p.id.pid && readStat(pid)?.comm === 'sleep' && sleeping(pid);
    const pid = await until('the sleep of the pipeline', () => listPids().find(isSleeper));
    cleanup.track(identify(pid));
    const row = inventory(identify(pid)!, { secrets: [] })!;
    expect(row.fds.map((f) => [f.fd, f.kind])).toEqual([
      [1, 'pipe'],
      [2, 'file'],
    ]);
    expect(row.fds[0]!.target).toMatch(/^pipe:\[\d+\]$/);
  });

  it('classifies fd targets', () => {
    expect(classifyFd('pipe:[123]')).toBe('pipe');
    expect(classifyFd('socket:[9]')).toBe('socket');
    expect(classifyFd('/dev/pts/3')).toBe('tty');
    expect(classifyFd('anon_inode:[eventfd]')).toBe('anon');
    expect(classifyFd('/tmp/x.log (deleted)')).toBe('file');
    expect(classifyFd('net:[4026531840]')).toBe('other');
  });

  it('decodes /proc/net/tcp6 and unix rows as the kernel writes them', () => {
    const tcp6 =
      '  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n' +
      '   0: 00000000000000000000000001000000:1F90 00000000000000000000000001000000:C350 01 00000000:00000000 00:00000000 00000000     0        0 4242 1 0 20 4 30 10 -1\n' +
      '   1: 0000000000000000FFFF00000100007F:0050 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 4343 1 0 20 4 30 10 -1\n';
    expect(parseTcpTable(tcp6, new Set([4242, 4343]))).toEqual([
      { local: '[::1]:8080', remote: '[::1]:50000', state: 'ESTABLISHED' },
      { local: '[::ffff:127.0.0.1]:80', remote: '[::]:0', state: 'LISTEN' },
    ]);
    const unix =
      'Num       RefCount Protocol Flags    Type St Inode Path\n' +
      '0000000000000000: 00000002 00000000 00010000 0001 01 777 /run/a b.sock\n' +
      '0000000000000000: 00000003 00000000 00000000 0001 03 778\n';
    expect(parseUnixTable(unix, new Set([777, 778]))).toEqual([
      { inode: 777, path: '/run/a b.sock' },
      { inode: 778, path: null },
    ]);
  });
});
