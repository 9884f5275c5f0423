/**
 * `network: loopback` with the real CLI, as the user the suite runs as (root in CI; the same
 * drills as uid 65534 are test/unprivileged/network.e2e.test.ts): a server that tries a public
 * address and an address of this machine is refused in its namespace and says so, while it
 * reaches the drill remote over HTTP and HTTPS, and the remote names it as the sender; on the
 * host's network nothing of that is made; an existing drill's verdicts are the same either way;
 * and where the kernel makes no namespace the run refuses before anything starts.
 */
import { readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, collect, runCli } from '../../support/cli.js';
import { fakeSubject, scenarioYaml } from '../../support/scenarios.js';
import { tempDir } from '../../support/temp-dir.js';
import { anyAddressListener, hostAddress, leftovers, PUBLIC_TARGET, reachYaml, readReport, runFiles, verdictTable } from '../../support/network.js';

const HOST_NS = readlinkSync('/proc/self/ns/net');
const isRoot = process.getuid?.() === 0;
const address = hostAddress();
if (!address) console.log('[network] this machine has no non-loopback IPv4 address: the host-address target is left out');

let listener: Awaited<ReturnType<typeof anyAddressListener>>;
beforeAll(async () => {
  listener = await anyAddressListener();
});
afterAll(() => listener.close());

const targets = (): string[] => [PUBLIC_TARGET, ...(address ? [`${address}:${listener.port}`] : [])];

/**
 * leaks-child (exits on EOF, leaves its helper), ignores-eof and well-behaved, after the helper
 * started, crash and stop, under ts-sdk and goose (a group of its own, and a parent-death
 * SIGTERM the kernel sends into the namespace): the verdicts to compare.
 */
function verdictDrills(dir: string): void {
  for (const server of ['leaks-child', 'ignores-eof', 'well-behaved'] as const)
    writeFileSync(
      join(dir, `${server}.yaml`),
      scenarioYaml({
        id: server,
        subject: fakeSubject(server),
        target: { call: 'spawn-helper' },
        points: ['after-response'],
        modes: ['crash', 'stop'],
        'client-profiles': ['ts-sdk', 'goose'],
        expect: { 'exit-on-eof': { deadline: 800 }, 'no-survivors': { grace: 800 } },
      }),
    );
}

describe('network: loopback', () => {
  // Both clients: the stand-in execs join.pl itself; a client process spawns it through pre-exec.pl under goose (its group, its parent-death signal).
  it.each([
    ['inprocess', 'ts-sdk'],
    ['process', 'goose'],
  ])('refuses every address but the drill remote, which it reaches over HTTP and HTTPS and which names it (--client %s, %s)', async (client, profile) => {
    const dir = tempDir();
    const report = join(dir, 'report.json');
    writeFileSync(join(dir, 'reach.yaml'), reachYaml('reach', report, targets()));
    const out = join(dir, 'out');
    const run = await runCli(['run', dir, '--network', 'loopback', '--client', client, '--client-profile', profile, '--out', out, '--reporter', 'console']);
    const files = runFiles(out, run);
    expect(run.code).toBe(0);
    const r = readReport(report);
    const drillId = files.drills[0]!.id;
    expect(r.targets).toEqual(Object.fromEntries(targets().map((t) => [t, { ok: false, code: 'ENETUNREACH' }])));
    expect(r.remote).toMatchObject({ ok: true, status: 200, body: { drill: drillId } });
    expect(r.https).toMatchObject({ ok: true, status: 200, body: { drill: drillId } });
    expect(r.netns).not.toBe(HOST_NS);
    expect(r.uid).toBe(process.getuid?.());
    const events = files.events.get(files.drills[0]!.key)!;
    const network = events.filter((e) => e.type === 'network');
    expect(network).toHaveLength(1);
    expect(network[0]).toMatchObject({ mode: 'loopback', kind: isRoot ? 'net' : 'user' });
    // The remote names the server (pid and start time) as the sender of both requests, through the relay.
    const server = events.find((e) => e.type === 'subject-spawned') as { pid: number; startTime: number } | undefined;
    expect(server).toBeDefined();
    // Before the revocation: after it the harness probes /whoami itself with the revoked token.
    const beforeRevoke = events.slice(
      0,
      events.findIndex((e) => e.type === 'revoked'),
    );
    const whoami = beforeRevoke
      .filter((e) => e.type === 'remote' && (e.entry as { kind: string; path?: string }).path === '/whoami')
      .map((e) => e.entry as { process?: { pid: number; startTime: number }; attribution: string });
    expect(whoami).toHaveLength(2);
    for (const w of whoami) expect(w).toMatchObject({ process: { pid: server!.pid, startTime: server!.startTime }, attribution: 'candidate' });
    expect(events.filter((e) => e.type === 'network-relay')).toHaveLength(2);
    expect(leftovers(files)).toEqual([]);
  });

  it('--network host makes no namespace: the same server reaches this machine and the remote on the host network', async () => {
    const dir = tempDir();
    const report = join(dir, 'report.json');
    writeFileSync(join(dir, 'reach.yaml'), reachYaml('reach', report, targets(), undefined, 'loopback'));
    const out = join(dir, 'out');
    // The flag wins over the scenario's own network: loopback.
    const run = await runCli(['run', dir, '--network', 'host', '--out', out, '--reporter', 'console']);
    const files = runFiles(out, run);
    expect(run.code).toBe(0);
    const r = readReport(report);
    expect(r.netns).toBe(HOST_NS);
    if (address) expect(r.targets[`${address}:${listener.port}`]).toEqual({ ok: true });
    expect(r.remote).toMatchObject({ ok: true, status: 200, body: { drill: files.drills[0]!.id } });
    const events = files.events.get(files.drills[0]!.key)!;
    expect(events.filter((e) => e.type === 'network' || e.type === 'network-relay')).toEqual([]);
    expect(leftovers(files)).toEqual([]);
  });

  it("a scenario's network: loopback alone puts its server there", async () => {
    const dir = tempDir();
    const report = join(dir, 'report.json');
    writeFileSync(join(dir, 'reach.yaml'), reachYaml('reach', report, targets(), undefined, 'loopback'));
    const out = join(dir, 'out');
    const files = runFiles(out, await runCli(['run', dir, '--out', out, '--reporter', 'console']));
    expect(readReport(report).netns).not.toBe(HOST_NS);
    expect(readReport(report).targets[PUBLIC_TARGET]).toEqual({ ok: false, code: 'ENETUNREACH' });
    expect(leftovers(files)).toEqual([]);
  });

  it('an existing drill gives exactly the same verdicts in the namespace as on the host network', async () => {
    const tables = [];
    for (const network of ['host', 'loopback']) {
      const dir = tempDir();
      verdictDrills(dir);
      const out = join(dir, 'out');
      const files = runFiles(out, await runCli(['run', dir, '--network', network, '--out', out, '--reporter', 'console']));
      expect(files.drills.every((d) => files.events.get(d.key)!.some((e) => e.type === 'network') === (network === 'loopback'))).toBe(true);
      expect(leftovers(files)).toEqual([]);
      tables.push(verdictTable(files.drills));
    }
    const [host, loopback] = tables;
    expect(Object.keys(host!)).toHaveLength(12);
    expect(host!['leaks-child/after-response/crash']).toMatchObject({ 'exit-on-eof': 'pass', 'no-survivors': 'fail' });
    expect(host!['ignores-eof/after-response/crash']).toMatchObject({ 'exit-on-eof': 'fail' });
    expect(host!['well-behaved/after-response/crash']).toMatchObject({ 'exit-on-eof': 'pass', 'no-survivors': 'pass' });
    // goose's parent-death SIGTERM ends ignores-eof: it reached the server in its namespace.
    expect(host!['ignores-eof/after-response/crash@goose']).toMatchObject({ 'no-survivors': 'pass' });
    expect(host!['leaks-child/after-response/stop@goose']).toMatchObject({ 'exit-on-eof': 'pass', 'no-survivors': 'fail' });
    expect(loopback).toEqual(host);
  }, 120_000);

  it('refuses to run, saying why, where the kernel makes no namespace; --network host is the way out', async () => {
    // A real refusal: a user namespace of the test's own whose limits of user and network
    // namespaces are 0 (user_namespaces(7): the limits are per namespace, and its owner may set
    // them), so every unshare the harness tries in it fails with ENOSPC, as where they are off.
    const dir = tempDir();
    const report = join(dir, 'report.json');
    writeFileSync(join(dir, 'reach.yaml'), reachYaml('reach', report, targets()));
    const limited = (args: string[]) =>
      collect(
        spawn(
          'unshare',
          [
            '--user',
            '--map-root-user',
            'sh',
            '-c',
            'echo 0 > /proc/sys/user/max_net_namespaces && echo 0 > /proc/sys/user/max_user_namespaces && exec "$@"',
            'sh',
            process.execPath,
            CLI,
            ...args,
          ],
          { env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
        ),
      );
    const refused = await limited(['run', dir, '--network', 'loopback', '--out', join(dir, 'refused')]);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('--network loopback: no loopback-only network can be made here for the servers under drill');
    expect(refused.stderr).toContain('(unshare: ENOSPC)');
    expect(refused.stderr).toContain('user.max_net_namespaces=0');
    expect(refused.stderr).toContain('--network host runs them on the host');
    expect(() => readReport(report)).toThrow(); // the server never started
    const way = await limited(['run', dir, '--network', 'host', '--out', join(dir, 'host'), '--reporter', 'console']);
    expect(way.code).toBe(0);
    expect(readReport(report).remote).toMatchObject({ ok: true, status: 200 });
  });

  it('a network that is not host or loopback is a config error naming the file and the field', async () => {
    const dir = tempDir();
    const file = join(dir, 'bad.yaml');
    writeFileSync(file, reachYaml('bad', join(dir, 'r.json'), []).replace('retry: false', 'retry: false\nnetwork: wifi'));
    const run = await runCli(['run', file, '--out', join(dir, 'out')]);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain(file);
    expect(run.stderr).toMatch(/network.*expected one of host, loopback/);
    const flag = await runCli(['run', file, '--network', 'wifi']);
    expect(flag.code).toBe(3);
    expect(flag.stderr).toMatch(/--network.*host, loopback/);
  });
});
