/**
 * reaches-out: a server that tries the network before it serves, as a server with a real API
 * would. At startup it connects (TCP, 2 s at most each) to every `host:port` of REACH_TARGETS,
 * and GETs `/whoami` from the drill remote with its token over HTTP (CRASH_DRILL_REMOTE_URL) and,
 * when REACH_HTTPS_URL is set, over HTTPS (trusting the run's CA through the environment the
 * harness gives it). It writes what each gave, with its own uid and network namespace, as one
 * JSON object to the file REACH_REPORT. Then it is well-behaved. The oracle of `network: loopback`
 * (test/drill/network/): refused everywhere but at the drill remote.
 */
import { readlinkSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { runFakeServer } from './lib/base.js';

type Outcome = { ok: true; status?: number; body?: unknown } | { ok: false; code: string };

function tcp(target: string): Promise<Outcome> {
  const colon = target.lastIndexOf(':');
  return new Promise((resolve) => {
    const socket = connect({ host: target.slice(0, colon), port: Number(target.slice(colon + 1)), timeout: 2000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve({ ok: true });
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve({ ok: false, code: 'TIMEOUT' });
    });
    socket.once('error', (e: NodeJS.ErrnoException) => resolve({ ok: false, code: e.code ?? e.message }));
  });
}

async function whoami(base: string): Promise<Outcome> {
  try {
    const response = await fetch(`${base}/whoami`, { headers: { Authorization: `Bearer ${process.env.CRASH_DRILL_TOKEN ?? ''}` } });
    return { ok: true, status: response.status, body: await response.json() };
  } catch (error) {
    const cause = (error as { cause?: NodeJS.ErrnoException }).cause;
    return { ok: false, code: cause?.code ?? String(error) };
  }
}

const targets = (process.env.REACH_TARGETS ?? '').split(',').filter(Boolean);
const report = {
  uid: process.getuid?.(),
  netns: readlinkSync('/proc/self/ns/net'),
  targets: Object.fromEntries(await Promise.all(targets.map(async (t) => [t, await tcp(t)] as const))),
  remote: process.env.CRASH_DRILL_REMOTE_URL ? await whoami(process.env.CRASH_DRILL_REMOTE_URL) : null,
  https: process.env.REACH_HTTPS_URL ? await whoami(process.env.REACH_HTTPS_URL) : null,
};
if (process.env.REACH_REPORT) writeFileSync(process.env.REACH_REPORT, JSON.stringify(report));

await runFakeServer({
  name: 'reaches-out',
  exitOnInputLoss: true,
  onSigterm: 'shutdown',
  endChildrenOnExit: true,
  helper: 'child',
  keepAliveTimer: false,
});
