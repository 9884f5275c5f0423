/**
 * The parts of the /proc reader beyond stat, environ and cmdline (harness/observe/proc/): a
 * process's descriptors, its other files, the socket tables. Read from real processes, and
 * read again once each is gone, when every reader answers null (or nothing) instead of throwing.
 */
import { realpathSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  fdLinkedTo,
  fdLinkMode,
  listFds,
  listTasks,
  parseStat,
  procAvailable,
  readCwd,
  readEnviron,
  readEnvironValues,
  readExe,
  readFdinfo,
  readFdLink,
  readFdLinkOrThrow,
  readFdLinksAsync,
  readMaps,
  readMounts,
  readNetTable,
  readOwnerUid,
  readStat,
  readStatOnce,
  readTaskFile,
  scanNetTable,
} from '../../harness/observe/proc.js';
import { parseTcpLine } from '../../harness/observe/net.js';
import { signalIdentity } from '../../harness/containment/signal.js';
import { Cleanup } from '../support/cleanup.js';
import { tempDir } from '../support/temp-dir.js';
import { start, type Proc } from './helpers.js';

const cleanup = new Cleanup();
const servers: Server[] = [];
afterEach(async () => {
  await cleanup.run();
  for (const s of servers.splice(0)) s.close();
});

const IDLE = 'setInterval(() => {}, 1e6);';

async function gone(p: Proc): Promise<void> {
  signalIdentity(p.id, 'SIGKILL');
  await new Promise((r) => p.child.once('exit', r));
}

/** The descriptors of this process open on /proc/<pid>/stat. */
function statFdsOf(pid: number): string[] {
  return (listFds(process.pid) ?? []).filter((fd) => readFdLink(process.pid, fd) === `/proc/${pid}/stat`);
}

describe('the /proc reader: descriptors', () => {
  it('lists fds, reads their links, access modes and fdinfo, finds a socket holder sync and async; nothing once gone', async () => {
    const dir = realpathSync(tempDir('proc-fds-'));
    const file = join(dir, 'held');
    writeFileSync(file, 'x');
    const server = createServer();
    servers.push(server);
    const accepted = new Promise<Socket>((resolve) => server.once('connection', resolve));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    const script = `const fs = require('fs'); const w = fs.openSync(${JSON.stringify(file)}, 'w'); const r = fs.openSync(${JSON.stringify(file)}, 'r');
      const s = require('net').connect(${port}, '127.0.0.1', () => console.log(JSON.stringify({ w, r, port: s.localPort }))); ${IDLE}`;
    const p = start(cleanup, process.execPath, ['-e', script]);
    const { w, r, port: clientPort } = JSON.parse(await p.nextLine()) as { w: number; r: number; port: number };
    (await accepted).on('error', () => {});
    const pid = p.id.pid;

    expect(listFds(pid)).toEqual(expect.arrayContaining(['0', '1', '2', String(w), String(r)]));
    expect(readFdLink(pid, w)).toBe(file);
    expect(readFdLinkOrThrow(pid, String(r))).toBe(file);
    expect(readFdLink(pid, 0)).toMatch(/^(pipe|socket):\[\d+\]$/);
    expect(fdLinkMode(pid, w)! & 0o600).toBe(0o200);
    expect(fdLinkMode(pid, r)! & 0o600).toBe(0o400);
    expect(readFdinfo(pid, w)).toMatch(/^pos:\s+\d+$/m);
    expect(readFdLink(pid, 9999)).toBeNull();
    expect(() => readFdLinkOrThrow(pid, 9999)).toThrow(expect.objectContaining({ code: 'ENOENT' }));

    // The child's end of the connection: its line in /proc/net/tcp, then the fd that holds it.
    const hex = (n: number): string => `:${n.toString(16).toUpperCase().padStart(4, '0')}`;
    const inode = scanNetTable('tcp', (line) => {
      const l = parseTcpLine(line);
      return l !== null && l.local.endsWith(hex(clientPort)) && l.remote.endsWith(hex(port)) ? l.inode : undefined;
    });
    expect(inode).toBeGreaterThan(0);
    const link = `socket:[${inode}]`;
    const fd = fdLinkedTo(pid, link);
    expect(fd).toBeDefined();
    expect(readFdLink(pid, fd!)).toBe(link);
    expect(fdLinkedTo(process.pid, link)).toBeUndefined(); // this process holds the other end
    expect(await readFdLinksAsync(pid)).toContain(link);
    expect(readNetTable(pid, 'tcp')).toContain(` ${inode} `);

    await gone(p);
    expect(listFds(pid)).toBeNull();
    expect(readFdLink(pid, w)).toBeNull();
    expect(fdLinkMode(pid, w)).toBeNull();
    expect(readFdinfo(pid, w)).toBeNull();
    expect(fdLinkedTo(pid, link)).toBeUndefined();
    expect(await readFdLinksAsync(pid)).toEqual([]);
    expect(readNetTable(pid, 'tcp')).toBe('');
  });

  it('scans /proc/net/tcp line by line and stops at the first line answered for', () => {
    let seen = 0;
    expect(
      scanNetTable('tcp', (line) => {
        seen++;
        return line.includes('local_address') ? 'header' : undefined;
      }),
    ).toBe('header');
    expect(seen).toBe(1);
    seen = 0;
    expect(scanNetTable('tcp', () => void seen++)).toBeUndefined();
    expect(seen).toBeGreaterThan(1);
  });
});

describe('the /proc reader: other files', () => {
  it("reads a process's owner, program, folder, maps and threads; null once gone", async () => {
    const dir = realpathSync(tempDir('proc-files-'));
    const p = start(cleanup, process.execPath, ['-e', IDLE], { cwd: dir, stdio: 'ignore' });
    const pid = p.id.pid;
    const exe = realpathSync(process.execPath);
    expect(procAvailable()).toBe(true);
    expect(readOwnerUid(pid)).toBe(process.getuid!());
    expect(readExe(pid)).toBe(exe);
    expect(readCwd(pid)).toBe(dir);
    expect(readMaps(pid)).toContain(exe);
    expect(listTasks(pid)).toContain(pid); // the main thread's id is the pid
    expect(readTaskFile(pid, pid, 'comm')?.trim()).toBe(readStat(pid)?.comm);
    expect(parseStat(readTaskFile(pid, pid, 'stat') ?? '')?.pid).toBe(pid);
    expect(typeof readTaskFile(pid, pid, 'wchan')).toBe('string');
    expect(readMounts()).toMatch(/^proc \/proc proc /m);

    await gone(p);
    expect(readOwnerUid(pid)).toBeNull();
    expect(readExe(pid)).toBeNull();
    expect(readCwd(pid)).toBeNull();
    expect(readMaps(pid)).toBeNull();
    expect(listTasks(pid)).toBeNull();
    expect(readTaskFile(pid, pid, 'comm')).toBeNull();
  });

  it("finds one variable's value in each process that has it, as its first entry or a later one", async () => {
    const first = start(cleanup, process.execPath, ['-e', IDLE], { stdio: 'ignore', env: { PROC_READER_V: 'first' } });
    const later = start(cleanup, process.execPath, ['-e', IDLE], { stdio: 'ignore', env: { OTHER: 'x', PROC_READER_V: 'later=with=eq' } });
    const prefix = start(cleanup, process.execPath, ['-e', IDLE], { stdio: 'ignore', env: { PROC_READER_VX: 'no', XPROC_READER_V: 'no' } });
    const values = readEnvironValues([first.id.pid, later.id.pid, prefix.id.pid, 999_999_999], 'PROC_READER_V');
    expect(values).toEqual(
      new Map([
        [first.id.pid, 'first'],
        [later.id.pid, 'later=with=eq'],
      ]),
    );
    expect(values.get(later.id.pid)).toBe(readEnviron(later.id.pid)?.get('PROC_READER_V'));
  });

  it('reads a stat line once without keeping a descriptor', async () => {
    const p = start(cleanup, process.execPath, ['-e', IDLE], { stdio: 'ignore' });
    const kept = statFdsOf(p.id.pid).length;
    expect(readStatOnce(p.id.pid)).toMatchObject({ pid: p.id.pid, startTime: p.id.startTime, ppid: process.pid });
    expect(statFdsOf(p.id.pid)).toHaveLength(kept);
    await gone(p);
    expect(readStatOnce(p.id.pid)).toBeNull();
  });
});
