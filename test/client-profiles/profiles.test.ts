/**
 * Every client profile cites its source and has a shape one piece of code can execute
 * (harness/client-profiles/profiles.ts). The checker is proven both ways: it accepts every
 * entry and rejects each kind of broken one.
 */
import { describe, expect, it } from 'vitest';
import { CLIENT_PROFILES, type ClientProfile, DEFAULT_PROFILE, PROFILE_NAMES, type StopStep } from '../../harness/client-profiles/profiles.js';

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGKILL'];
const REACH = ['child', 'group', 'tree', 'descendants'];
const LIVENESS = [null, 'child', 'group'];

function stepProblems(step: StopStep, i: number, profile: ClientProfile): string[] {
  const at = `${profile.name}.stop[${i}]`;
  switch (step.kind) {
    case 'close-stdin':
      return LIVENESS.includes(step.onlyIfAlive) ? [] : [`${at}.onlyIfAlive`];
    case 'wait-ms':
      return [
        ...sentProblems(step.onlyIfSent, i, profile, at),
        ...(Number.isInteger(step.ms) && step.ms > 0 ? [] : [`${at}.ms`]),
        ...(LIVENESS.includes(step.endsWhenGone) ? [] : [`${at}.endsWhenGone`]),
        ...(step.endsWhenGone === 'group' && profile.spawn.group === 'same' ? [`${at}: a same-group client has no group of the server's to watch`] : []),
      ];
    case 'signal':
      return [
        ...sentProblems(step.onlyIfSent, i, profile, at),
        ...(SIGNALS.includes(step.name) ? [] : [`${at}.name`]),
        ...(REACH.includes(step.to) ? [] : [`${at}.to`]),
        ...(LIVENESS.includes(step.onlyIfAlive) ? [] : [`${at}.onlyIfAlive`]),
        // killpg of the client's own group would signal the client itself.
        ...(step.to === 'group' && profile.spawn.group === 'same' ? [`${at}: killpg from a same-group client`] : []),
      ];
    case 'abandon':
      // Dropping the server is the whole of such a stop: nothing after it reaches the server.
      return profile.stop.length === 1 ? [] : [`${at}: abandon is not the only step`];
    default:
      return [`${at}: unknown kind ${(step as { kind: string }).kind}`];
  }
}

/** `onlyIfSent` names an earlier signal step, or nothing. */
function sentProblems(onlyIfSent: number | undefined, i: number, profile: ClientProfile, at: string): string[] {
  if (onlyIfSent === undefined) return [];
  return Number.isInteger(onlyIfSent) && onlyIfSent >= 0 && onlyIfSent < i && profile.stop[onlyIfSent].kind === 'signal' ? [] : [`${at}.onlyIfSent`];
}

/** What is wrong with an entry; empty when it is legal. */
function problems(key: string, profile: ClientProfile): string[] {
  const out: string[] = [];
  if (profile.name !== key) out.push(`${key}: name is ${profile.name}`);
  if (!['same', 'own-group', 'own-session'].includes(profile.spawn.group)) out.push(`${key}.spawn.group`);
  const env = profile.spawn.env;
  if (env.kind === 'allowlist' ? env.names.length === 0 || env.names.some((n) => !/^[A-Za-z_][A-Za-z0-9_]*$/.test(n)) : env.kind !== 'whole')
    out.push(`${key}.spawn.env`);
  if (profile.spawn.parentDeathSignal !== null && !SIGNALS.includes(profile.spawn.parentDeathSignal)) out.push(`${key}.spawn.parentDeathSignal`);
  if (!['inherit', 'pipe-read', 'pipe-unread'].includes(profile.spawn.stderr)) out.push(`${key}.spawn.stderr`);
  if (profile.stop.length === 0) out.push(`${key}.stop is empty`);
  if (!profile.stop.some((s) => s.kind !== 'wait-ms')) out.push(`${key}.stop does nothing but wait`);
  for (const [i, step] of profile.stop.entries()) out.push(...stepProblems(step, i, profile));
  // The crash row follows from the spawn row: only a parent-death signal reaches the server.
  const crashSignal = profile.crash === 'eof' ? null : profile.crash.signal;
  if (crashSignal !== profile.spawn.parentDeathSignal) out.push(`${key}.crash disagrees with spawn.parentDeathSignal`);
  if (profile.source.length === 0) out.push(`${key}.source is empty`);
  for (const [i, c] of profile.source.entries()) {
    if (![c.repo, c.where, c.what, c.version].every((s) => typeof s === 'string' && s.trim().length > 0)) out.push(`${key}.source[${i}] is incomplete`);
  }
  // An observed entry cites its tracker; a read one cites at least one file.
  const tracker = profile.source.filter((c) => c.where.startsWith('#'));
  if (profile.observed && tracker.length !== profile.source.length) out.push(`${key}: observed, but cites more than its tracker`);
  if (!profile.observed && tracker.length === profile.source.length) out.push(`${key}: read, but cites no file`);
  return out;
}

describe('client profiles', () => {
  it('has exactly the named profiles, ts-sdk the default', () => {
    expect(Object.keys(CLIENT_PROFILES).sort()).toEqual([...PROFILE_NAMES].sort());
    expect(DEFAULT_PROFILE).toBe('ts-sdk');
    expect(PROFILE_NAMES).toHaveLength(17);
  });

  it('every entry cites its source and has a legal shape', () => {
    expect(Object.entries(CLIENT_PROFILES).flatMap(([key, p]) => problems(key, p))).toEqual([]);
  });

  it('only the closed-source clients are observed rather than read', () => {
    expect(PROFILE_NAMES.filter((n) => CLIENT_PROFILES[n].observed)).toEqual(['claude-code', 'claude-code-reconnect', 'claude-desktop', 'cursor']);
  });

  it('the checker rejects each kind of broken entry', () => {
    const base = CLIENT_PROFILES['python-sdk'];
    const broken: [string, ClientProfile][] = [
      ['no source', { ...base, source: [] }],
      ['blank citation', { ...base, source: [{ repo: 'mcp', where: ' ', what: 'x', version: '1' }] }],
      ['empty stop', { ...base, stop: [] }],
      ['only waits', { ...base, stop: [{ kind: 'wait-ms', ms: 10, endsWhenGone: null }] }],
      ['zero wait', { ...base, stop: [...base.stop, { kind: 'wait-ms', ms: 0, endsWhenGone: null }] }],
      ['bad signal', { ...base, stop: [{ kind: 'signal', name: 'SIGUSR1' as 'SIGINT', to: 'child', onlyIfAlive: null }] }],
      ['group kill from the same group', { ...base, spawn: { ...base.spawn, group: 'same' } }],
      ['crash disagrees', { ...base, crash: { signal: 'SIGTERM', to: 'child' } }],
      ['empty allowlist', { ...base, spawn: { ...base.spawn, env: { kind: 'allowlist', names: [] } } }],
      ['observed with files', { ...base, observed: true }],
      ['wrong key', { ...base, name: 'codex' }],
      ['bad stderr', { ...base, spawn: { ...base.spawn, stderr: 'tty' as 'inherit' } }],
      ['onlyIfSent of a later step', { ...base, stop: [{ kind: 'signal', name: 'SIGTERM', to: 'group', onlyIfAlive: null, onlyIfSent: 1 }, ...base.stop] }],
      ['onlyIfSent of a wait', { ...base, stop: [...base.stop, { kind: 'signal', name: 'SIGKILL', to: 'group', onlyIfAlive: null, onlyIfSent: 1 }] }],
      ['abandon with other steps', { ...base, stop: [{ kind: 'abandon' }, ...base.stop] }],
      ['bad reach', { ...base, stop: [{ kind: 'signal', name: 'SIGTERM', to: 'siblings' as 'tree', onlyIfAlive: null }] }],
    ];
    for (const [what, profile] of broken) expect(problems('python-sdk', profile), what).not.toEqual([]);
  });
});
