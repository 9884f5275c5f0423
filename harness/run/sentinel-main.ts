/**
 * The sentinel process (harness/registry/sentinel.ts): waits for its stdin to end and contains the
 * run only when the harness died without saying "done" (`--now`: its perl front saw it die). It
 * lives with the run path because it ends what every layer of a run leaves.
 */
import { EXIT } from '../util/errors.js';

const runId = process.argv[2] ?? '';
/** How long the harness may take to drop its lock after its pipe to us closed. */
const HARNESS_GONE_WAIT_MS = 1000;
let text = '';
if (process.argv[3] === '--now') {
  void onEnd();
} else {
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk: string) => (text += chunk));
  process.stdin.on('error', () => {});
  process.stdin.on('end', () => void onEnd());
}

async function onEnd(): Promise<void> {
  if (/^done$/m.test(text) || runId === '') process.exit(0);
  // Loaded only now: a run that ends well (almost every run) never pays for the sweep's code.
  const [{ appendOwnFile, runsDir, sweepStale, watchdogFile, whenRunEnds }, { sweepStaleContainerRows }] = await Promise.all([
    import('../registry/index.js'),
    import('../containers/index.js'),
  ]);
  const mine = (id: string): boolean => id === runId;
  // A registry not the user's own is neither read nor written (harness/registry/registry.ts).
  try {
    runsDir();
  } catch {
    process.exit(EXIT.usage);
  }
  // EOF comes when the kernel closes the dead harness's descriptors, its run lock among them
  // (harness/registry/run-lock.ts): the sweep takes only runs proven dead, so wait for the lock.
  await whenRunEnds(runId, HARNESS_GONE_WAIT_MS);
  const ended = [
    ...(await sweepStale({ runFilter: mine, termWaitMs: 500, keepRegistration: true })),
    ...(await sweepStaleContainerRows(mine, { always: true })),
  ];
  const at = new Date().toISOString();
  // What was gone before its signal was ended by a holder, which records it itself.
  const lines = ended
    .filter((r) => r.endedBy !== 'already-gone')
    .map((r) => JSON.stringify({ ...r, by: 'sentinel', at }))
    .join('\n');
  const { removeDrillTemps } = await import('../drill/executor/temp-folder.js');
  removeDrillTemps(runId);
  const { removeDeadTlsFolders } = await import('./run-tls.js');
  removeDeadTlsFolders(mine); // the run's trust files (run-tls.ts)
  if (lines !== '') {
    try {
      appendOwnFile(watchdogFile(runId), `${lines}\n`); // made exclusively, or a regular file of ours appended to
    } catch {
      // no registry folder: nothing can be reported later, the processes are ended all the same
    }
  }
  process.exit(0);
}
