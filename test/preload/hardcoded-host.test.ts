import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createRemote, type DrillRemote } from '../../harness/remote/index.js';
import { Cleanup } from '../support/cleanup.js';
import { readStat } from '../../harness/observe/proc.js';
import { correlationMeta, idFrom, requestsOn } from '../fake-servers/support/remote-subject.js';
import { ensureBuilt, HARDCODED_API, HARDCODED_HOST_JS, startSubject } from './support.js';

const janitor = new Cleanup();
let remote: DrillRemote;
beforeAll(async () => {
  ensureBuilt();
  remote = await createRemote();
});
afterEach(() => janitor.run());
afterAll(() => remote?.close());

describe('hardcoded-host with the intercept preload', () => {
  for (const tool of ['deploy', 'deploy-legacy'] as const) {
    it(`${tool}: the write to ${HARDCODED_API} lands on the drill remote, keyed, tied to the server`, async () => {
      const { subject, server, drillId } = await startSubject(janitor, remote, { intercept: [HARDCODED_API] });
      const { correlationId, meta } = correlationMeta();
      const first = await subject.callToolFull(tool, { service: 'web' }, meta);
      expect(first.isError, first.text).toBe(false);
      const effectId = idFrom(first.text, 'effect');

      expect(remote.effects(drillId)).toEqual([
        expect.objectContaining({ id: effectId, kind: 'action', op: 'deploy', target: 'web', idempotencyKey: correlationId }),
      ]);
      const [request] = requestsOn(remote, drillId, 'POST /actions');
      expect(request).toMatchObject({
        method: 'POST',
        path: '/actions',
        credential: 'session', // the preload added the session's bearer
        write: true,
        idempotencyKey: correlationId,
        outcome: 'committed',
        status: 201,
      });
      // Forwarded from inside the server process: attribution names the server itself.
      expect(request!.process).toMatchObject({ pid: server.pid, startTime: server.startTime });

      // The recovery retry with the same correlation id is a replay, not a second effect.
      const again = await subject.callToolFull(tool, { service: 'web' }, meta);
      expect(idFrom(again.text, 'effect')).toBe(effectId);
      expect(requestsOn(remote, drillId, 'POST /actions').map((r) => r.outcome)).toEqual(['committed', 'replayed']);
      expect(remote.effects(drillId)).toHaveLength(1);

      // The preload writes nothing to stdout, and does not keep the server up after EOF.
      expect(subject.nonJsonLines).toEqual([]);
      subject.closeStdin();
      expect(await subject.exitWithin(10_000)).toMatchObject({ code: 0, signal: null });
    });
  }

  it("the server's own Authorization is kept: an unknown key is denied, the API key is accepted", async () => {
    const denied = await startSubject(janitor, remote, { intercept: [HARDCODED_API], env: { EXAMPLE_API_KEY: 'sk_live_not_a_drill_key' } });
    const answer = await denied.subject.callToolFull('deploy', { service: 'web' }, correlationMeta().meta);
    expect(answer).toEqual({ isError: true, text: 'deploy failed: HTTP 401' });
    // Not the session's token: the remote ties it to the drill by the process that sent it.
    const unknown = requestsOn(remote, denied.drillId, 'POST /actions');
    expect(unknown).toEqual([expect.objectContaining({ credential: 'unknown', outcome: 'denied', status: 401, processDrillId: denied.drillId })]);
    expect(unknown[0]!.process?.pid).toBe(denied.server.pid);
    expect(remote.effects(denied.drillId)).toEqual([]);

    const keyed = await startSubject(janitor, remote, { intercept: [HARDCODED_API], env: { EXAMPLE_API_KEY: remote.apiKey } });
    const ok = await keyed.subject.callToolFull('deploy-legacy', { service: 'api' }, correlationMeta().meta);
    expect(ok.isError, ok.text).toBe(false);
    const viaKey = remote.requests({}).filter((r) => r.process?.pid === keyed.server.pid);
    expect(viaKey).toEqual([expect.objectContaining({ credential: 'api-key', outcome: 'committed', status: 201 })]);
  });

  it('the `sent` gate holds the forwarded request, and a dropped answer reaches the server as a network error', async () => {
    const { subject, server, drillId } = await startSubject(janitor, remote, { intercept: [HARDCODED_API] });
    const gate = remote.arm({ drillId, point: 'sent' });
    const { correlationId, meta } = correlationMeta();
    const call = subject.callToolFull('deploy', { service: 'web' }, meta);
    const hit = await gate.reached;
    expect(hit.process?.pid).toBe(server.pid);
    expect(remote.effects(drillId)).toEqual([]); // held before the handler: nothing committed yet
    remote.setFault(drillId, { kind: 'drop-after-commit' });
    gate.release();
    const answer = await call;
    expect(answer.isError).toBe(true);
    expect(answer.text).toMatch(/^deploy failed: fetch failed .*PRELOAD_FORWARD_FAILED/);
    // The effect exists though the server never saw the answer: what idempotent-effects is about.
    expect(remote.effects(drillId)).toEqual([expect.objectContaining({ idempotencyKey: correlationId })]);
  });

  it('works through an `sh -c` wrapper: NODE_OPTIONS reaches the node grandchild', async () => {
    const { subject, server, drillId } = await startSubject(janitor, remote, {
      intercept: [HARDCODED_API],
      command: 'sh',
      // Not `exec`: sh stays as the middle process, as with wrapper scripts.
      args: ['-c', `"${process.execPath}" "${HARDCODED_HOST_JS}"; echo "sh done" >&2`],
    });
    const answer = await subject.callToolFull('deploy', { service: 'wrapped' }, correlationMeta().meta);
    expect(answer.isError, answer.text).toBe(false);
    const [request] = requestsOn(remote, drillId, 'POST /actions');
    const pid = request!.process!.pid;
    janitor.track(pid);
    expect(pid).not.toBe(server.pid);
    expect(readStat(pid)?.ppid).toBe(server.pid); // the node server under sh
    expect(readFileSync(`/proc/${pid}/cmdline`, 'utf8')).toContain('hardcoded-host.js');
    expect(request).toMatchObject({ credential: 'session', outcome: 'committed' });
  });

  it('without the preload both tools fail: the hard-coded host does not resolve', async () => {
    const { subject, drillId } = await startSubject(janitor, remote, { intercept: null });
    for (const tool of ['deploy', 'deploy-legacy']) {
      const answer = await subject.callToolFull(tool, { service: 'web' }, correlationMeta().meta);
      expect(answer.isError).toBe(true);
      expect(answer.text).toMatch(new RegExp(`^${tool} failed: .*(ENOTFOUND|EAI_AGAIN)`));
    }
    expect(remote.requests({ drillId })).toEqual([]);
    expect(remote.effects(drillId)).toEqual([]);
  });
});
