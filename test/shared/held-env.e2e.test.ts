/**
 * NODE_EXTRA_CA_CERTS is held back from the drill client process and given back to the server
 * it starts (harness/shared/held-env.ts): on a real drill under a profile that passes its whole
 * environment on, the server's shell reads its own value and its parent's (the client's)
 * environment from /proc before it execs the server.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runQuiet } from '../../bench/drills.js';
import { parseScenario } from '../../harness/config/index.js';
import { eventsOf } from '../../harness/evidence/types.js';
import { holdBack, restoreHeld } from '../../harness/shared/held-env.js';
import { packageRoot } from '../../harness/util/paths.js';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'held-env-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the held-back environment', () => {
  it('gives back exactly what it held, and leaves an environment without it alone', () => {
    const env = { PATH: '/bin', NODE_EXTRA_CA_CERTS: '/x/ca.pem' };
    const held = holdBack(env);
    expect(held.NODE_EXTRA_CA_CERTS).toBeUndefined();
    expect(restoreHeld(held)).toEqual(env);
    const plain = { PATH: '/bin' };
    expect(holdBack(plain)).toEqual(plain);
    expect(restoreHeld(plain)).toBe(plain);
  });

  it('keeps NODE_EXTRA_CA_CERTS from the client process and gives it to the server of a client that passes its whole environment on', async () => {
    const ca = join(dir, 'ca.pem');
    await writeFile(ca, '');
    const server = join(packageRoot(), 'dist/fake-servers/well-behaved.js');
    // The shell is the client's child: $PPID is the drill client process.
    const script = `echo "server:$NODE_EXTRA_CA_CERTS" >&2; echo "client:$(tr '\\0' '\\n' < /proc/$PPID/environ | grep -c '^NODE_EXTRA_CA_CERTS=')" >&2; exec node ${JSON.stringify(server)}`;
    const text = [
      'id: held-env',
      'subject:',
      '  command: sh',
      `  args: ["-c", ${JSON.stringify(script)}]`,
      'target:',
      '  call: spawn-helper',
      'points: [after-response]',
      // VS Code passes its whole environment to the server (the TypeScript SDK only an allowlist).
      'client-profiles: [vscode]',
      'modes: [crash]',
      '',
    ].join('\n');
    const before = process.env.NODE_EXTRA_CA_CERTS;
    process.env.NODE_EXTRA_CA_CERTS = ca;
    try {
      const { evidence } = await runQuiet([parseScenario(text, join(dir, 'held-env.yaml'))], undefined, 'process');
      const stderr = eventsOf(evidence[0], 'subject-stderr')
        .map((e) => e.text)
        .join('');
      expect(stderr).toContain(`server:${ca}\n`);
      expect(stderr).toContain('client:0\n');
    } finally {
      if (before === undefined) delete process.env.NODE_EXTRA_CA_CERTS;
      else process.env.NODE_EXTRA_CA_CERTS = before;
    }
  });
});
