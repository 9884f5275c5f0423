import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { registerRun } from '../../harness/registry/index.js';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { readStat as readProcStat } from '../../harness/observe/proc.js';
import { Attributor, type Attribution } from '../../harness/remote/attribution/attributor.js';
import { bearer, cleanup, spawnNode, startRemote } from './helpers.js';

afterEach(cleanup);

/** A child that GETs /whoami once with the token from its env, prints the answer and exits. */
const WHOAMI_CHILD = `
fetch(process.env.URL + '/whoami', { headers: { authorization: 'Bearer ' + process.env.TOKEN } })
  .then((r) => r.text())
  .then((t) => process.stdout.write(t));
`;

function stdoutOf(child: ReturnType<typeof spawnNode>): Promise<string> {
  return new Promise((resolve) => {
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stdout!.on('end', () => resolve(out));
  });
}

describe('remote attribution', () => {
  it('names the pid and start time of the child process that sent a request, and not ours', async () => {
    const remote = await startRemote();
    const { token } = remote.openSession('d1');
    // Hold the child's request so it is certainly alive while we read its /proc entry.
    const gate = remote.arm({ drillId: 'd1', point: 'sent', match: { path: '/whoami' } });
    const child = spawnNode(WHOAMI_CHILD, { URL: remote.url, TOKEN: token });
    const out = stdoutOf(child);
    const hit = await gate.reached;
    const stat = readProcStat(child.pid!);
    expect(stat).toBeDefined();
    expect(hit.process).toEqual({ pid: child.pid, startTime: stat!.startTime });
    expect(hit.process!.pid).not.toBe(process.pid);
    gate.release();
    expect(JSON.parse(await out)).toMatchObject({ credential: 'session', drill: 'd1' });
    expect(await child.exited).toBe(0);

    // Our own request, next: attributed to this process, not to the child.
    expect((await fetch(`${remote.url}/whoami`, { headers: bearer(token) })).status).toBe(200);
    const [fromChild, fromUs] = remote.requests();
    expect(fromChild).toMatchObject({ process: { pid: child.pid, startTime: stat!.startTime }, attribution: 'scan' });
    expect(fromUs.process).toEqual({ pid: process.pid, startTime: readProcStat(process.pid)!.startTime });
  });

  it('ties an API-key request to the drill whose candidate pids hold the socket, else scans', async () => {
    const remote = await startRemote();
    const gate = remote.arm({ drillId: 'dc', point: 'sent', match: { path: '/whoami' } });
    let child: ReturnType<typeof spawnNode> | undefined;
    remote.setCandidatePids('dc', () => (child?.pid === undefined ? [] : [child.pid]));
    remote.setCandidatePids('decoy', () => [1]); // a live pid that holds no such socket
    child = spawnNode(WHOAMI_CHILD, { URL: remote.url, TOKEN: remote.apiKey });
    const out = stdoutOf(child);
    const hit = await gate.reached; // the gate is of drill dc: only attribution can put it there
    expect(hit.process?.pid).toBe(child.pid);
    gate.release();
    expect(JSON.parse(await out)).toEqual({ session: null, drill: 'dc', credential: 'api-key' });
    await child.exited;

    // This process is nobody's candidate: found as the harness's own (self), tied to no drill.
    await fetch(`${remote.url}/whoami`, { headers: bearer(remote.apiKey) });
    const [viaCandidate, viaSelf] = remote.requests();
    expect(viaCandidate).toMatchObject({ credential: 'api-key', drillId: 'dc', processDrillId: 'dc', attribution: 'candidate' });
    expect(viaCandidate.sessionId).toBeUndefined();
    expect(viaSelf).toMatchObject({ credential: 'api-key', attribution: 'self', process: { pid: process.pid } });
    expect(viaSelf.drillId).toBeUndefined();
  });

  it('reads the drill from CRASH_DRILL_RUN when the process is no candidate', async () => {
    // Registered, so a drill run in another test file does not contain it as a stale leftover.
    const registration = registerRun('denv');
    onTestFinished(() => registration.unregister());
    const remote = await startRemote();
    const child = spawnNode(WHOAMI_CHILD, { URL: remote.url, TOKEN: remote.apiKey, CRASH_DRILL_RUN: 'denv' });
    const out = stdoutOf(child);
    expect(JSON.parse(await out)).toMatchObject({ drill: 'denv', credential: 'api-key' });
    await child.exited;
    expect(remote.requests()[0]).toMatchObject({ drillId: 'denv', processDrillId: 'denv', attribution: 'scan', process: { pid: child.pid } });
  });

  it('attributes a revoked token to the process that used it', async () => {
    const remote = await startRemote();
    const { sessionId, token } = remote.openSession('dr');
    remote.revoke(sessionId);
    const child = spawnNode(WHOAMI_CHILD, { URL: remote.url, TOKEN: token });
    const out = stdoutOf(child);
    expect(JSON.parse(await out)).toEqual({ error: 'unauthorized' });
    await child.exited;
    expect(remote.requests()[0]).toMatchObject({ outcome: 'denied', sessionId, drillId: 'dr', process: { pid: child.pid } });
  });
});

/** Until `pid` is a zombie or gone: its descriptors, its socket among them, are closed by then (exit_files precedes the zombie). */
function untilExitedSync(pid: number, timeoutMs = 5000): void {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    const stat = readProcStat(pid);
    if (stat === null || stat.state === 'Z') return;
  }
  throw new Error(`pid ${pid} did not exit within ${timeoutMs} ms of its SIGKILL`);
}

describe('attribution at accept', () => {
  it('names a sender that exits right after its connection is accepted: what the remote needs is read in that turn', async () => {
    const server = createTcpServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    onTestFinished(() => new Promise<void>((r) => server.close(() => r())));
    const port = (server.address() as AddressInfo).port;
    const attributor = new Attributor(port);
    // It writes its request and waits for nothing: it is killed as soon as its connection is accepted.
    const child = spawnNode(
      `const s = require('node:net').connect(${port}, '127.0.0.1', () => s.write('GET /whoami HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n')); setInterval(() => {}, 1000);`,
    );
    const startTime = readProcStat(child.pid!)!.startTime;
    attributor.setCandidates('d1', () => [child.pid!]);
    const attribution = await new Promise<Promise<Attribution>>((resolve) =>
      server.once('connection', (socket) => {
        onTestFinished(() => void socket.destroy());
        const started = attributor.attribute(socket);
        // The sender is gone before the harness's next turn, as one that exits at once (or stops
        // waiting for its answer and exits) is gone before a loaded harness gets back to it.
        child.kill('SIGKILL');
        untilExitedSync(child.pid!);
        resolve(started);
      }),
    );
    expect(await attribution).toMatchObject({ method: 'candidate', drillId: 'd1', process: { pid: child.pid, startTime } });
    await child.exited;
  });
});
