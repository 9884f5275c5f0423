/**
 * The loopback-only network's parts with real processes (harness/drill/network/): a process
 * that enters it keeps its pid and its uid and sees another network namespace where only the
 * relayed remote answers; the remote names that process, through the relay, by pid and start
 * time (harness/remote/attribution/relayed.ts); the keeper and its folder go at close; and the
 * refusal reasons read the keeper's report.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { type AddressInfo, createServer } from 'node:net';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { openLoopbackNetwork, type LoopbackNetwork } from '../../../harness/drill/network/namespace.js';
import { whyRefused } from '../../../harness/drill/network/refusal.js';
import { identify, type ProcIdentity } from '../../../harness/observe/identity.js';
import { signalIdentity } from '../../../harness/containment/signal.js';
import { attributeInside } from '../../../harness/remote/attribution/relayed.js';
import { leftovers } from '../../support/network.js';
import { cleanup, startRemote } from '../../remote/helpers.js';

const HOST_NS = readlinkSync('/proc/self/ns/net');
const opened: LoopbackNetwork[] = [];
afterEach(async () => {
  for (const n of opened.splice(0)) await n.close();
  await cleanup();
});

/** A Node process in `network` (or on the host's when null): it GETs /whoami with `token` and prints what it saw, as JSON. */
function probe(network: LoopbackNetwork | null, url: string, token: string) {
  const code = `
const fs = require('node:fs');
fetch(process.env.URL + '/whoami', { headers: { authorization: 'Bearer ' + process.env.TOKEN } })
  .then((r) => r.json(), (e) => ({ error: e.cause?.code }))
  .then((answer) => process.stdout.write(JSON.stringify({ pid: process.pid, uid: process.getuid(), netns: fs.readlinkSync('/proc/self/ns/net'), answer })));`;
  const [command, args] = network ? network.command(process.execPath, ['-e', code]) : [process.execPath, ['-e', code]];
  const child = spawn(command, args, { env: { ...process.env, URL: url, TOKEN: token }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const done = new Promise<{ pid: number; uid: number; netns: string; answer: Record<string, unknown> }>((resolve, reject) =>
    child.on('close', (status) => (status === 0 ? resolve(JSON.parse(out)) : reject(new Error(`exit ${status}: ${err}`)))),
  );
  return { child, done };
}

describe('a loopback-only network', () => {
  it('keeps the pid and uid of what enters it, gives it another namespace, and relays only the remote, which names it', async () => {
    const remote = await startRemote();
    const { token } = remote.openSession('dn');
    let pid = 0;
    const network = await openLoopbackNetwork('test-ns', [remote.port], (c, outbound) =>
      remote.relayedConnection(outbound, attributeInside(c.keeperPid, c.innerPort, c.port, [pid], 'dn')),
    );
    opened.push(network);
    expect(network.kind).toBe(process.getuid?.() === 0 ? 'net' : 'user');
    const inside = probe(network, remote.url, token);
    pid = inside.child.pid!;
    const startTime = identify(pid)!.startTime;
    const seen = await inside.done;
    expect(seen.pid).toBe(pid); // join.pl execs in place
    expect(seen.uid).toBe(process.getuid?.());
    expect(seen.netns).not.toBe(HOST_NS);
    expect(seen.answer).toMatchObject({ drill: 'dn', credential: 'session' });
    expect(remote.requests()).toMatchObject([{ path: '/whoami', process: { pid, startTime }, attribution: 'candidate', processDrillId: 'dn' }]);

    // The other way: on the host's network, the same process is in our namespace and found by a scan.
    const outside = probe(null, remote.url, token);
    const seenOutside = await outside.done;
    expect(seenOutside.netns).toBe(HOST_NS);
    expect(remote.requests()[1]).toMatchObject({ process: { pid: outside.child.pid }, attribution: 'scan' });
  });

  it('relays nothing but its ports: another loopback port of the host is refused inside', async () => {
    const remote = await startRemote();
    const other = await startRemote();
    const { token } = other.openSession('do');
    const network = await openLoopbackNetwork('test-ns', [remote.port]);
    opened.push(network);
    expect((await probe(network, other.url, token).done).answer).toEqual({ error: 'ECONNREFUSED' });
    expect((await probe(null, other.url, token).done).answer).toMatchObject({ drill: 'do' });
  });

  it('a connection whose reader stopped reading holds up no other, nor the close', async () => {
    // 96 MB to each connection: more than the kernel's socket buffers take (tcp_rmem and tcp_wmem
    // allow 36 MB here), so a relay that
    // waited on a write to the stalled reader would stall everything behind it.
    const SIZE = 96 << 20;
    const big = Buffer.alloc(SIZE, 1);
    const host = createServer((socket) => socket.on('error', () => {}).end(big));
    await new Promise<void>((r) => host.listen(0, '127.0.0.1', () => r()));
    onTestFinished(() => new Promise<void>((r) => host.close(() => r())));
    const port = (host.address() as AddressInfo).port;
    const network = await openLoopbackNetwork('test-ns-stall', [port]);
    opened.push(network);
    // Connects and never reads.
    const [perl, args] = network.command('perl', [
      '-MIO::Socket::INET',
      '-e',
      `my $s = IO::Socket::INET->new('127.0.0.1:${port}') or die $!; $| = 1; print "c\n"; sleep 600`,
    ]);
    const stalled = spawn(perl, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    const stalledId = await new Promise<ProcIdentity>((resolve) => stalled.stdout.once('data', () => resolve(identify(stalled.pid!)!)));
    onTestFinished(() => void signalIdentity(stalledId, 'SIGKILL'));
    const [node, readerArgs] = network.command(process.execPath, [
      '-e',
      `let n = 0; require('net').connect(${port}, '127.0.0.1').on('data', (d) => (n += d.length)).on('end', () => process.stdout.write(String(n)));`,
    ]);
    const reader = spawn(node, readerArgs, { stdio: ['ignore', 'pipe', 'inherit'] });
    let got = '';
    reader.stdout.on('data', (d) => (got += d));
    await new Promise((r) => reader.on('close', r));
    expect(Number(got)).toBe(SIZE);
    await network.close();
    expect(identify(network.keeper.pid)?.startTime === network.keeper.startTime).toBe(false);
  });

  it('ends its keeper and removes its folder at close; a leftover check sees a keeper still alive', async () => {
    const network = await openLoopbackNetwork('test-ns-close', [1]);
    const files = {
      runId: 'test-ns-close',
      drills: [],
      events: new Map([['k', [{ type: 'network', keeper: { ...network.keeper } }]]]),
    };
    const folders = () => readdirSync(tmpdir()).filter((n) => n.startsWith('crash-drill-test-ns-close-net-'));
    expect(folders()).toHaveLength(1);
    expect(leftovers(files)).toEqual([`keeper ${network.keeper.pid}`]);
    await network.close();
    expect(identify(network.keeper.pid)?.startTime === network.keeper.startTime).toBe(false);
    expect(folders()).toEqual([]);
    expect(leftovers(files)).toEqual([]);
  });

  it("says why from the keeper's report", () => {
    expect(whyRefused('refused unshare EPERM')).toMatch(/^the kernel refused to make .* \(unshare: EPERM\): user namespaces are not allowed to this user/);
    expect(whyRefused('refused unshare ENOSPC')).toMatch(/\(unshare: ENOSPC\): the limit of user or network namespaces is reached/);
    expect(whyRefused('refused uid_map EPERM')).toMatch(/^a user namespace was made, but its uid_map could not be written \(EPERM\)/);
    expect(whyRefused('refused lo EPERM')).toMatch(/^the namespace's loopback interface could not be brought up \(EPERM\)/);
    expect(whyRefused("exit 2 Can't locate Socket.pm")).toBe("the namespace keeper did not start (exit 2 Can't locate Socket.pm)");
  });
});
