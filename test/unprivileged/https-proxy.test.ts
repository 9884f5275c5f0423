/**
 * The remote's HTTPS and the intercept proxy as an ordinary user (uid 65534; as is when the
 * suite runs unprivileged): the run's CA and trust files go into that user's own registry, the
 * Python fake reaches the remote over HTTPS and through the proxy, and nothing of the run's
 * trust folder is left.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { DrillResult } from '../../harness/results/types.js';
import { python3, scenarioYaml } from '../support/scenarios.js';
import { unprivileged } from '../support/unprivileged.js';

const u = unprivileged();
if (!u.available) console.log(`[unprivileged] skipped: ${u.reason}`);

describe.runIf(u.available)('HTTPS and the intercept proxy as an ordinary user', () => {
  afterAll(() => {
    if (u.available) u.cleanup();
  });

  it('the Python fake writes over {{remote.httpsUrl}} and through the proxy, both reaching sent and passing', async () => {
    if (!u.available) return;
    const dir = u.workDir();
    const out = join(dir, 'out');
    const server = join(u.root, 'fake-servers/python/https_writer.py');
    for (const [id, call] of [
      ['https-write', 'write'],
      ['hardcoded-host', 'write-hardcoded'],
    ]) {
      writeFileSync(
        join(dir, `${id}.yaml`),
        scenarioYaml({
          id,
          subject: { command: python3(), args: [server], env: { FAKE_API_URL: '{{remote.httpsUrl}}' } },
          target: { call, args: { op: 'deploy', target: 'web' } },
          points: ['sent'],
          modes: ['crash'],
          remote: { intercept: ['https://api.example.invalid'] },
        }),
      );
    }
    const run = await u.run(['run', dir, '--out', out], { cwd: dir });
    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as { drills: DrillResult[] };
    const table = Object.fromEntries(results.drills.map((d) => [d.key, d.verdict]));
    expect(table, run.stdout + run.stderr).toEqual({ 'https-write/sent/crash': 'pass', 'hardcoded-host/sent/crash': 'pass' });
    // The run's trust folder was in the user's own registry and is gone.
    const registry = '/tmp/crash-drill-65534/runs';
    if (existsSync(registry)) expect(readdirSync(registry).filter((n) => n.endsWith('.tls'))).toEqual([]);
  }, 180_000);
});
