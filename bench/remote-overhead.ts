/**
 * What the drill remote adds: per request (its journal and process attribution, against a bare
 * node:http server on the same loopback), and per drill (revoking the session and probing it,
 * and the recovery retry of a write drill), read off the evidence of real drills.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseScenario } from '../harness/config/index.js';
import type { DrillEvidence } from '../harness/evidence/types.js';
import { createRemote } from '../harness/remote/index.js';
import { runQuiet } from './drills.js';
import { median } from './stats.js';

async function timeRequests(url: string, headers: Record<string, string>, count: number): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    const response = await fetch(url, { headers });
    await response.arrayBuffer();
    samples.push(performance.now() - t0);
  }
  return median(samples);
}

/** Median ms per loopback GET through a bare node:http server and through the remote. */
export async function perRequest(count: number): Promise<{ bare: number; remote: number }> {
  const bare = createServer((_req, res) => res.end('{"session":"x"}'));
  await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
  const remote = await createRemote();
  try {
    const { token } = remote.openSession('bench.0');
    const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/whoami`;
    await timeRequests(bareUrl, {}, 20);
    await timeRequests(`${remote.url}/whoami`, { authorization: `Bearer ${token}` }, 20);
    return { bare: await timeRequests(bareUrl, {}, count), remote: await timeRequests(`${remote.url}/whoami`, { authorization: `Bearer ${token}` }, count) };
  } finally {
    bare.close();
    await remote.close();
  }
}

function span(evidence: DrillEvidence, from: string, to: string): number | null {
  const a = evidence.events.find((e) => e.type === from);
  const b = evidence.events.find((e) => e.type === to);
  return a && b ? b.t - a.t : null;
}

/** Per drill: revocation to the probe's answer, and the recovery retry (first retry event to its end). */
export async function perDrill(
  dir: string,
  serverScript: string,
  runs: number,
  signal: AbortSignal,
): Promise<{ revokeAndProbe: number; retry: number; drill: number }> {
  const file = join(dir, 'remote-write.yaml');
  const yaml = [
    'id: bench-remote-write',
    `subject: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(serverScript)}] }`,
    'target: { call: write, args: { op: deploy, target: web } }',
    'points: [after-response]',
    'modes: [crash]',
    'remote: {}',
  ].join('\n');
  await writeFile(file, yaml);
  const scenario = parseScenario(yaml, file);
  const { evidence } = await runQuiet(
    Array.from({ length: runs }, () => scenario),
    signal,
  );
  const values = (from: string, to: string) => evidence.map((e) => span(e, from, to)).filter((v): v is number => v !== null);
  return {
    revokeAndProbe: median(values('revoked', 'probe')),
    retry: median(values('retry', 'retry-end')),
    drill: median(values('drill-start', 'drill-end')),
  };
}
