import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { interceptEnv } from '../../harness/preload/index.js';
import { createRemote, type DrillRemote } from '../../harness/remote/index.js';
import { Cleanup } from '../support/cleanup.js';
import { PROBE_SOURCE, type ProbeOutcome } from './probe.js';
import { baseEnv, ensureBuilt, HARDCODED_API } from './support.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

const janitor = new Cleanup();
let remote: DrillRemote;
let local: Server;
let localOrigin: string;
let seen: Seen[] = [];

beforeAll(async () => {
  ensureBuilt();
  remote = await createRemote();
  local = createServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    req.resume();
    req.on('end', () => res.end('from-local'));
  });
  await new Promise<void>((resolve) => local.listen(0, '127.0.0.1', resolve));
  localOrigin = `http://127.0.0.1:${(local.address() as AddressInfo).port}`;
});
beforeEach(() => {
  seen = [];
});
afterEach(() => janitor.run());
afterAll(async () => {
  await remote?.close();
  await new Promise((resolve) => local?.close(resolve));
});

/** Runs the probe against `url` under `env` and returns what fetch and http.request got. */
async function probe(url: string, env: NodeJS.ProcessEnv): Promise<{ fetch: ProbeOutcome; http: ProbeOutcome }> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', PROBE_SOURCE, url], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  janitor.track(child.pid!);
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  expect(code, stderr).toBe(0);
  const lines = stdout.trim().split('\n');
  expect(lines, 'the probe prints exactly one line: the preload adds nothing to stdout').toHaveLength(1);
  return JSON.parse(lines[0]!) as { fetch: ProbeOutcome; http: ProbeOutcome };
}

function drillEnv(): { drillId: string; env: NodeJS.ProcessEnv } {
  const drillId = `preload-test-${randomUUID()}`;
  janitor.registerRun(drillId);
  const { token } = remote.openSession(drillId);
  return { drillId, env: { ...baseEnv(), CRASH_DRILL_RUN: drillId, CRASH_DRILL_REMOTE_URL: remote.url, CRASH_DRILL_TOKEN: token } };
}

describe('what the preload leaves alone, and what it never lets through', () => {
  it('a host that is not listed is reached directly, untouched (fetch and http.request)', async () => {
    const { drillId, env } = drillEnv();
    const got = await probe(`${localOrigin}/direct?q=1`, { ...env, ...interceptEnv([HARDCODED_API]) });
    expect(got.fetch).toEqual({ status: 200, body: 'from-local' });
    expect(got.http).toEqual({ status: 200, body: 'from-local' });
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual(['POST /direct?q=1', 'POST /direct?q=1']);
    for (const request of seen) {
      expect(request.headers.authorization).toBeUndefined(); // no token handed to a stranger
      expect(request.headers['x-forwarded-host']).toBeUndefined();
    }
    expect(remote.requests({ drillId })).toEqual([]);
  });

  it('the same host, once listed, is never reached: both requests go to the remote instead', async () => {
    const { drillId, env } = drillEnv();
    const got = await probe(`${localOrigin}/whoami?secret-query=1`, { ...env, ...interceptEnv([localOrigin]) });
    expect(seen).toEqual([]);
    expect(got.fetch.status).toBe(404); // the remote's answer: POST /whoami is not a route
    expect(got.http.status).toBe(404);
    expect(got.fetch.body).not.toBe('from-local');
    const requests = remote.requests({ drillId });
    expect(requests.map((r) => [r.method, r.path, r.credential, r.idempotencyKey])).toEqual([
      ['POST', '/whoami', 'session', 'probe-fetch'],
      ['POST', '/whoami', 'session', 'probe-http'],
    ]);
  });

  it('a listed host with no CRASH_DRILL_REMOTE_URL fails with a network error, and is not reached', async () => {
    const { drillId, env } = drillEnv();
    delete env.CRASH_DRILL_REMOTE_URL;
    const got = await probe(`${localOrigin}/x`, { ...env, ...interceptEnv([localOrigin]) });
    expect(seen).toEqual([]);
    expect(got.fetch.status).toBeUndefined();
    expect(got.http.status).toBeUndefined();
    // Each API's own shape of a network failure: undici's TypeError with a cause, an Error with a code.
    expect(got.fetch).toMatchObject({ name: 'TypeError', error: 'PRELOAD_NO_REMOTE' });
    expect(got.http).toMatchObject({ name: 'PreloadError', error: 'PRELOAD_NO_REMOTE' });
    expect(got.fetch.message).toContain('CRASH_DRILL_REMOTE_URL is not set');
    expect(remote.requests({ drillId })).toEqual([]);
  });
});
