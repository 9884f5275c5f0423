/**
 * The intercept proxy with a real client that honours proxy variables (curl): a listed https
 * origin's request goes through the remote's pipeline (auth, journal with its origin, its
 * sender attributed), anything else is refused with 403 and journalled as outside the drill,
 * without contacting the destination.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { RunCa } from '../../../harness/remote/tls/run-ca.js';
import type { JournalEvent } from '../../../harness/remote/types.js';
import { tempDir } from '../../support/temp-dir.js';
import { until } from '../../support/until.js';
import { cleanup, startRemote } from '../helpers.js';

afterEach(cleanup);
const run = promisify(execFile);

async function setUp() {
  const ca = await RunCa.create('test');
  const remote = await startRemote({ ca });
  const proxy = await remote.proxyFor(['https://api.example.invalid']);
  const caFile = join(tempDir(), 'ca.pem');
  writeFileSync(caFile, ca.certPem);
  const events: JournalEvent[] = [];
  remote.on('journal', (e) => events.push(e));
  // The drill's processes are its candidates: curl's pid, read when its connection is accepted.
  let pid = 0;
  remote.setCandidatePids('d1', () => [pid]);
  // curl reads https_proxy itself, as it would from a subject's environment (proxy-env.ts).
  const curl = (args: string[]) => {
    const p = run('curl', ['-sS', '-o', '-', '-w', '\n%{http_connect} %{http_code}', '--cacert', caFile, ...args], {
      env: { PATH: process.env.PATH, https_proxy: proxy.url, http_proxy: proxy.url },
    });
    pid = p.child.pid ?? 0;
    return p;
  };
  return { remote, proxy, events, curl };
}

describe('the intercept proxy', () => {
  it("terminates TLS for a listed origin and hands the request to the remote's pipeline", async () => {
    const { remote, curl } = await setUp();
    const { token } = remote.openSession('d1');
    const { stdout } = await curl([
      '-X',
      'POST',
      '-H',
      `Authorization: Bearer ${token}`,
      '-H',
      'Idempotency-Key: k1',
      '-H',
      'Content-Type: application/json',
      '-d',
      '{"op":"deploy","target":"web"}',
      'https://api.example.invalid/actions',
    ]);
    expect(stdout.split('\n').pop()).toBe('200 201'); // the tunnel, then the answer inside it
    const [record] = remote.requests({ drillId: 'd1' });
    expect(record).toMatchObject({
      method: 'POST',
      path: '/actions',
      credential: 'session',
      write: true,
      outcome: 'committed',
      origin: 'https://api.example.invalid',
      attribution: 'candidate',
    });
    expect(record.process?.pid).toBeGreaterThan(0);
    expect(remote.effects('d1')).toHaveLength(1);
  });

  it('refuses every other destination, CONNECT or plain http, and journals it as outside the drill', async () => {
    const { events, curl } = await setUp();
    // A refused tunnel (the CONNECT's answer), then a refused plain request (the answer itself).
    const refusals = [];
    for (const url of ['https://api.example.com/x', 'http://api.example.invalid/y']) {
      const answer = await curl([url]).catch((e: { stdout: string }) => e);
      refusals.push(answer.stdout.split('\n').pop());
    }
    expect(refusals).toEqual(['403 000', '000 403']);
    // Journalled once the sender is attributed, which may come after curl has its answer.
    await until('both refusals journalled', () => events.filter((e) => e.kind === 'outside').length === 2);
    const outside = events.filter((e) => e.kind === 'outside');
    expect(outside.map((e) => e.kind === 'outside' && [e.method, e.host, e.port, e.attribution, e.drillId])).toEqual([
      ['CONNECT', 'api.example.com', 443, 'candidate', 'd1'],
      ['GET', 'api.example.invalid', 80, 'candidate', 'd1'],
    ]);
    expect(events.filter((e) => e.kind === 'request')).toEqual([]);
  });
});
