import type { KillMode, Scenario } from '../config/index.js';
import { signalIdentity, type ProcIdentity } from '../observe/index.js';
import { monoNow } from '../util/clock.js';
import type { DrillClientProcess } from './client-process.js';
import type { EvidenceRecorder } from './recorder.js';

const CLOSE_ACK_TIMEOUT_MS = 5_000;

/**
 * Kills the client in the drill's mode and records the moment the server lost it: the SIGKILL
 * (crash), the client closing the server's stdin (close: the spec's shutdown, which the client
 * then carries on with), or the SIGSTOP (hang). Null when the kill itself failed.
 */
export async function killClient(
  mode: KillMode,
  client: DrillClientProcess,
  clientId: ProcIdentity,
  scenario: Scenario,
  rec: EvidenceRecorder,
  wait: <T>(promise: Promise<T>) => Promise<T>,
): Promise<number | null> {
  if (mode === 'close') {
    client.send({ type: 'close', waitMs: scenario.timeouts.closeWait });
    const closed = await wait(client.waitFor((e) => e.type === 'close-step' && e.step === 'stdin-closed', CLOSE_ACK_TIMEOUT_MS));
    if (!closed) {
      rec.harness({ type: 'harness-error', phase: 'kill', message: 'the client did not close the server’s stdin' });
      return null;
    }
    rec.harness({ type: 'kill', mode: 'close', signal: null, result: 'stdin closed by the client' }, closed.t);
    rec.harness({ type: 'client-lost', mode: 'close', how: 'the client closed the server’s stdin (spec shutdown)' }, closed.t);
    return closed.t;
  }
  const signal = mode === 'crash' ? 'SIGKILL' : 'SIGSTOP';
  const t = monoNow();
  const result = signalIdentity(clientId, signal);
  rec.harness({ type: 'kill', mode, signal, result }, t);
  if (result !== 'sent') {
    rec.harness({ type: 'harness-error', phase: 'kill', message: `could not ${signal} the client: ${result}` });
    return null;
  }
  const how = signal === 'SIGKILL' ? 'the client was SIGKILLed' : 'the client was SIGSTOPped (alive, stuck)';
  rec.harness({ type: 'client-lost', mode, how }, t);
  return t;
}
