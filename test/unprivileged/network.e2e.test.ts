/**
 * `network: loopback` as an ordinary user (uid 65534): the namespace is a user namespace owning a
 * network namespace, the user's uid and gid mapped to themselves, so the server sees its own uid
 * and what it writes is the user's. The same drills as test/drill/network/loopback.e2e.test.ts
 * (as root there), with the same outcomes.
 */
import { spawn } from 'node:child_process';
import { readlinkSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collect } from '../support/cli.js';
import {
  anyAddressListener,
  hostAddress,
  leftovers,
  PUBLIC_TARGET,
  reachYaml,
  readReport,
  runFiles,
  verdictTable,
  withoutNamespaces,
} from '../support/network.js';
import { fakeSubject, scenarioYaml } from '../support/scenarios.js';
import { NOBODY, unprivileged } from '../support/unprivileged.js';

const u = unprivileged();
if (!u.available) console.log(`[unprivileged network] skipped: ${u.reason}`);
const HOST_NS = readlinkSync('/proc/self/ns/net');
const address = hostAddress();

describe.skipIf(!u.available)('network: loopback as an ordinary user', () => {
  if (!u.available) return;
  let listener: Awaited<ReturnType<typeof anyAddressListener>>;
  beforeAll(async () => {
    listener = await anyAddressListener();
  });
  afterAll(async () => {
    await listener.close();
    u.cleanup();
  });
  const targets = (): string[] => [PUBLIC_TARGET, ...(address ? [`${address}:${listener.port}`] : [])];

  it('refuses every address but the drill remote; the server is uid 65534 inside and its files are its own', async () => {
    const dir = u.workDir();
    const report = join(dir, 'report.json');
    writeFileSync(join(dir, 'reach.yaml'), reachYaml('reach', report, targets(), u.root));
    const out = join(dir, 'out');
    const files = runFiles(out, await u.run(['run', dir, '--network', 'loopback', '--out', out, '--reporter', 'console'], { cwd: dir }));
    const r = readReport(report);
    const drillId = files.drills[0]!.id;
    expect(r.targets).toEqual(Object.fromEntries(targets().map((t) => [t, { ok: false, code: 'ENETUNREACH' }])));
    expect(r.remote).toMatchObject({ ok: true, status: 200, body: { drill: drillId } });
    expect(r.https).toMatchObject({ ok: true, status: 200, body: { drill: drillId } });
    expect(r.netns).not.toBe(HOST_NS);
    expect(r.uid).toBe(NOBODY);
    expect(statSync(report).uid).toBe(NOBODY);
    const events = files.events.get(files.drills[0]!.key)!;
    expect(events.filter((e) => e.type === 'network')).toMatchObject([{ mode: 'loopback', kind: 'user' }]);
    const server = events.find((e) => e.type === 'subject-spawned') as unknown as { pid: number; startTime: number };
    const beforeRevoke = events.slice(
      0,
      events.findIndex((e) => e.type === 'revoked'),
    );
    const whoami = beforeRevoke.filter((e) => e.type === 'remote' && (e.entry as { path?: string }).path === '/whoami').map((e) => e.entry);
    expect(whoami).toMatchObject([
      { process: { pid: server.pid, startTime: server.startTime }, attribution: 'candidate' },
      { process: { pid: server.pid, startTime: server.startTime }, attribution: 'candidate' },
    ]);
    expect(leftovers(files)).toEqual([]);
  });

  it('--network host makes no namespace', async () => {
    const dir = u.workDir();
    const report = join(dir, 'report.json');
    writeFileSync(join(dir, 'reach.yaml'), reachYaml('reach', report, targets(), u.root, 'loopback'));
    const out = join(dir, 'out');
    const files = runFiles(out, await u.run(['run', dir, '--network', 'host', '--out', out, '--reporter', 'console'], { cwd: dir }));
    const r = readReport(report);
    expect(r.netns).toBe(HOST_NS);
    if (address) expect(r.targets[`${address}:${listener.port}`]).toEqual({ ok: true });
    expect([...files.events.values()].flat().filter((e) => e.type === 'network')).toEqual([]);
    expect(leftovers(files)).toEqual([]);
  });

  it('an existing drill gives exactly the same verdicts in the namespace as on the host network', async () => {
    const tables = [];
    for (const network of ['host', 'loopback']) {
      const dir = u.workDir();
      for (const server of ['leaks-child', 'well-behaved'] as const)
        writeFileSync(
          join(dir, `${server}.yaml`),
          scenarioYaml({
            id: server,
            subject: fakeSubject(server, {}, u.root),
            target: { call: 'spawn-helper' },
            points: ['after-response'],
            modes: ['crash'],
            expect: { 'exit-on-eof': { deadline: 800 }, 'no-survivors': { grace: 800 } },
          }),
        );
      const out = join(dir, 'out');
      const files = runFiles(out, await u.run(['run', dir, '--network', network, '--out', out, '--reporter', 'console'], { cwd: dir }));
      expect(leftovers(files)).toEqual([]);
      tables.push(verdictTable(files.drills));
    }
    const [host, loopback] = tables;
    expect(host!['leaks-child/after-response/crash']).toMatchObject({ 'exit-on-eof': 'pass', 'no-survivors': 'fail' });
    expect(host!['well-behaved/after-response/crash']).toMatchObject({ 'exit-on-eof': 'pass', 'no-survivors': 'pass' });
    expect(loopback).toEqual(host);
  }, 120_000);

  it('refuses to run, saying why, where the kernel makes no namespace; --network host is the way out', async () => {
    const dir = u.workDir();
    const report = join(dir, 'report.json');
    writeFileSync(join(dir, 'reach.yaml'), reachYaml('reach', report, targets(), u.root));
    const limited = (args: string[]) => {
      const [command, ...argv] = withoutNamespaces([process.execPath, join(u.root, 'dist/bin/crash-drill.js'), ...args]);
      return collect(spawn(command!, argv, { cwd: dir, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] }));
    };
    const refused = await limited(['run', dir, '--network', 'loopback', '--out', join(dir, 'refused')]);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('--network loopback: no loopback-only network can be made here for the servers under drill');
    expect(refused.stderr).toContain('(unshare: ENOSPC)');
    expect(() => readReport(report)).toThrow();
    const way = await limited(['run', dir, '--network', 'host', '--out', join(dir, 'host'), '--reporter', 'console']);
    expect(way.code).toBe(0);
    expect(readReport(report).remote).toMatchObject({ ok: true, status: 200 });
  });
});
