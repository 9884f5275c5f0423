/**
 * The recovery retry: after the crash, an agent restarts the server and re-issues the call it
 * never got an answer to. A fresh client and a fresh server (a new session, a new token) run
 * initialize, the setup, and the same target call with the same correlation id; a server that
 * forwards that id as its Idempotency-Key lets the remote replay instead of acting twice.
 * Its processes carry the drill's marker, so the drill's observer and containment cover them.
 * The retry's client is of the drill's own kind: a client process, or the in-process client
 * with its stand-in, and of the drill's client profile: it spawns and stops its server as that
 * client does.
 */
import { longestStop } from '../../client-profiles/profiles.js';
import type { ProfileFacts } from '../../evidence/types.js';
import type { ClientEvent } from '../../shared/protocol.js';
import type { Scenario } from '../../config/index.js';
import type { DrillCgroup } from '../../observe/index.js';
import { CLIENT_START_TIMEOUT_MS, clientSpawn, SETUP_ENDED, startCommand } from '../client/client-process.js';
import { createDrillClient, type ClientKind, type DrillClient } from '../client/drill-client.js';
import type { EvidenceRecorder } from './recorder.js';

export interface RetryOptions {
  drillId: string;
  scenario: Scenario;
  rec: EvidenceRecorder;
  cgroup: DrillCgroup | null;
  correlationId: string;
  env: Record<string, string>;
  /** The drill's own kind of client: the retry's client is the same kind (drill-client.ts). */
  client: ClientKind;
  /** The drill's client profile, its waits as the drill used them. */
  profile: ProfileFacts;
  /** Hands over the retry's client: its holder must stay until the drill is contained. */
  onClient?: (client: DrillClient) => void;
}

export async function recoveryRetry(opts: RetryOptions): Promise<void> {
  const { rec, scenario } = opts;
  const end = (ok: boolean, detail: string): void => void rec.harness({ type: 'retry-end', ok, detail });
  const { client } = createDrillClient(
    opts.client,
    opts.drillId,
    {
      onEvent: (event) => {
        const { t, ...rest } = event;
        rec.harness({ type: 'retry', event: rest as Omit<ClientEvent, 't'> } as Parameters<EvidenceRecorder['harness']>[0], t, 'client');
      },
      onSubjectStderr: () => {},
      onClientStderr: () => {},
    },
    opts.cgroup?.path,
  );
  opts.onClient?.(client);
  try {
    client.send(startCommand(scenario, opts.env, opts.correlationId, { client: clientSpawn(opts.profile) }));
    const id = await client.ready(CLIENT_START_TIMEOUT_MS);
    if (!id) return end(false, 'the retry client did not start');
    const ready = await client.waitFor((e) => SETUP_ENDED.has(e.type), scenario.timeouts.handshake);
    if (ready?.type !== 'setup-done') return end(false, `the retry's server did not get ready: ${ready?.type ?? 'timeout'}`);
    client.send({ type: 'prepare-target' });
    if (!(await client.waitFor((e) => e.type === 'before-dispatch', scenario.timeouts.point))) return end(false, 'the retry never built the target call');
    client.send({ type: 'dispatch', holdResponses: false });
    const answer = await client.waitFor((e) => e.type === 'response' || e.type === 'call-error', scenario.timeouts.point);
    if (!answer) return end(false, `the retried call got no answer within ${scenario.timeouts.point} ms`);
    if (answer.type === 'call-error') return end(false, `the retried call failed: ${answer.message}`);
    if (answer.type === 'response' && answer.isError) return end(false, `the retried call answered with an error: ${answer.text}`);
    end(true, 'the retried call was answered');
    // Shut the retry's server down the way the client does; containment ends whatever stays.
    client.send({ type: 'stop', steps: [...opts.profile.stop] });
    await client.waitFor((e) => e.type === 'stop-done', longestStop(opts.profile.stop) + 1000);
  } finally {
    if (client.alive) client.send({ type: 'exit' });
    await client.closed(1000);
    client.dispose();
  }
}
