/**
 * Every client profile cites its source and has a shape one piece of code can execute
 * (harness/client-profiles/profiles.ts). The checker is proven both ways: it accepts every
 * entry and rejects each kind of broken one.
 */
import { describe, expect, it } from 'vitest';
import {
  type Citation,
  CLIENT_PROFILES,
  type ClientBehaviour,
  type ClientProfile,
  DEFAULT_PROFILE,
  PROFILE_NAMES,
  type StopStep,
} from '../../harness/client-profiles/profiles.js';

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGKILL'];
const REACH = ['child', 'group', 'tree', 'descendants'];
const LIVENESS = [null, 'child', 'group'];

function stepProblems(step: StopStep, i: number, profile: ClientBehaviour): string[] {
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
function sentProblems(onlyIfSent: number | undefined, i: number, profile: ClientBehaviour, at: string): string[] {
  if (onlyIfSent === undefined) return [];
  return Number.isInteger(onlyIfSent) && onlyIfSent >= 0 && onlyIfSent < i && profile.stop[onlyIfSent].kind === 'signal' ? [] : [`${at}.onlyIfSent`];
}

const STEPS = ['spawn', 'env', 'stop', 'crash', 'abandon'];
const LABEL = /^[A-Za-z0-9.<>=_-]+$/;
const VERSION = /^\d+(\.\d+){0,2}$/;

/** What is wrong with one behaviour; empty when it is legal. */
function behaviourProblems(key: string, profile: ClientBehaviour): string[] {
  const out: string[] = [];
  if (profile.name !== key) out.push(`${key}: name is ${profile.name}`);
  const v = profile.versions;
  if (!LABEL.test(v.label)) out.push(`${key}.versions.label "${v.label}"`);
  if ((v.first === null) !== (v.last === null)) out.push(`${key}.versions: first and last are both versions or both null`);
  if (v.first !== null && v.last !== null && !(VERSION.test(v.first) && VERSION.test(v.last))) out.push(`${key}.versions: not versions`);
  if (v.since.trim() === '') out.push(`${key}.versions.since is empty`);
  if (!['same', 'own-group', 'own-session'].includes(profile.spawn.group)) out.push(`${key}.spawn.group`);
  if (!['socketpair', 'pipe'].includes(profile.spawn.stdio)) out.push(`${key}.spawn.stdio`);
  const env = profile.spawn.env;
  if (env.kind === 'allowlist' ? env.names.length === 0 || env.names.some((n) => !/^[A-Za-z_][A-Za-z0-9_]*$/.test(n)) : env.kind !== 'whole')
    out.push(`${key}.spawn.env`);
  if (env.kind === 'whole')
    for (const [i, rule] of env.rules.entries()) {
      const by = [rule.names, rule.prefixes, rule.containing, rule.values].filter((l) => l !== undefined);
      if (rule.whenStrict ? by.length !== 0 : by.length === 0 || by.some((l) => l.length === 0))
        out.push(`${key}.spawn.env.rules[${i}] matches nothing or too much`);
      for (const source of rule.values ?? []) {
        try {
          new RegExp(source, 'i');
        } catch {
          out.push(`${key}.spawn.env.rules[${i}]: bad pattern ${source}`);
        }
      }
    }
  if (env.kind === 'whole' && env.rules.some((r) => r.whenStrict) && !env.strictWhen?.length) out.push(`${key}.spawn.env: a strict rule that never applies`);
  if (profile.spawn.parentDeathSignal !== null && !SIGNALS.includes(profile.spawn.parentDeathSignal)) out.push(`${key}.spawn.parentDeathSignal`);
  if (!['inherit', 'pipe-read', 'pipe-unread'].includes(profile.spawn.stderr)) out.push(`${key}.spawn.stderr`);
  if (profile.stop.length === 0) out.push(`${key}.stop is empty`);
  if (!profile.stop.some((s) => s.kind !== 'wait-ms')) out.push(`${key}.stop does nothing but wait`);
  for (const [i, step] of profile.stop.entries()) out.push(...stepProblems(step, i, profile));
  // The crash row follows from the spawn row: only a parent-death signal reaches the server.
  const crashSignal = profile.crash === 'eof' ? null : profile.crash.signal;
  if (crashSignal !== profile.spawn.parentDeathSignal) out.push(`${key}.crash disagrees with spawn.parentDeathSignal`);
  if (Object.keys(profile.sources).sort().join() !== [...STEPS].sort().join()) out.push(`${key}.sources: not one per step`);
  const citations: Citation[] = [];
  for (const step of STEPS) {
    const source = profile.sources[step as keyof ClientBehaviour['sources']];
    if (source === undefined) continue;
    if ('unsourced' in source) {
      if (source.unsourced.trim() === '') out.push(`${key}.sources.${step}: unsourced without saying what it rests on`);
      continue;
    }
    if (source.cited.length === 0) out.push(`${key}.sources.${step} cites nothing`);
    for (const [i, c] of source.cited.entries()) {
      if (![c.repo, c.where, c.what, c.version].every((x) => typeof x === 'string' && x.trim().length > 0))
        out.push(`${key}.sources.${step}[${i}] is incomplete`);
      citations.push(c);
    }
  }
  // An observed entry cites its tracker; a read one cites at least one file.
  const tracker = citations.filter((c) => c.where.startsWith('#'));
  if (profile.observed && tracker.length !== citations.length) out.push(`${key}: observed, but cites more than its tracker`);
  if (!profile.observed && tracker.length === citations.length) out.push(`${key}: read, but cites no file`);
  return out;
}

/** What is wrong with a profile: each behaviour's problems, and ranges that are not one label each, newest first, apart. */
function problems(key: string, profile: ClientProfile): string[] {
  const out = profile.behaviours.length === 0 ? [`${key} has no behaviour`] : [];
  if (profile.name !== key) out.push(`${key}: name is ${profile.name}`);
  for (const b of profile.behaviours) out.push(...behaviourProblems(key, b));
  const labels = profile.behaviours.map((b) => b.versions.label);
  if (new Set(labels).size !== labels.length) out.push(`${key}: a range label twice`);
  const versioned = profile.behaviours.filter((b) => b.versions.first !== null);
  for (const [i, b] of versioned.entries()) {
    const next = versioned[i + 1];
    if (next && !(versionCompare(next.versions.last ?? '', b.versions.first ?? '') < 0))
      out.push(`${key}: ${next.versions.label} is not older than ${b.versions.label}`);
  }
  return out;
}

function versionCompare(a: string, b: string): number {
  const [x, y] = [a.split('.').map(Number), b.split('.').map(Number)];
  for (let i = 0; i < Math.max(x.length, y.length); i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
  return 0;
}

describe('client profiles', () => {
  it('has exactly the named profiles, ts-sdk the default', () => {
    expect(Object.keys(CLIENT_PROFILES).sort()).toEqual([...PROFILE_NAMES].sort());
    expect(DEFAULT_PROFILE).toBe('ts-sdk');
  });

  it('every behaviour has a source or says unsourced for each step, and a legal shape', () => {
    expect(Object.entries(CLIENT_PROFILES).flatMap(([key, p]) => problems(key, p))).toEqual([]);
  });

  it('only the closed-source clients are observed rather than read', () => {
    expect(PROFILE_NAMES.filter((n) => CLIENT_PROFILES[n].behaviours.some((b) => b.observed))).toEqual([
      'claude-code',
      'claude-code-reconnect',
      'claude-desktop',
      'cursor',
    ]);
  });

  it('the checker rejects each kind of broken entry', () => {
    const base = CLIENT_PROFILES['python-sdk'].behaviours[0];
    const cited = base.sources.stop;
    const broken: [string, ClientBehaviour][] = [
      ['no source', { ...base, sources: { ...base.sources, stop: { cited: [] } } }],
      ['a step without a source', { ...base, sources: { spawn: cited, env: cited, stop: cited, crash: cited } as ClientBehaviour['sources'] }],
      ['unsourced, saying nothing', { ...base, sources: { ...base.sources, crash: { unsourced: ' ' } } }],
      ['blank citation', { ...base, sources: { ...base.sources, stop: { cited: [{ repo: 'mcp', where: ' ', what: 'x', version: '1' }] } } }],
      ['empty stop', { ...base, stop: [] }],
      ['only waits', { ...base, stop: [{ kind: 'wait-ms', ms: 10, endsWhenGone: null }] }],
      ['zero wait', { ...base, stop: [...base.stop, { kind: 'wait-ms', ms: 0, endsWhenGone: null }] }],
      ['bad signal', { ...base, stop: [{ kind: 'signal', name: 'SIGUSR1' as 'SIGINT', to: 'child', onlyIfAlive: null }] }],
      ['group kill from the same group', { ...base, spawn: { ...base.spawn, group: 'same' } }],
      ['crash disagrees', { ...base, crash: { signal: 'SIGTERM', to: 'child' } }],
      ['empty allowlist', { ...base, spawn: { ...base.spawn, env: { kind: 'allowlist', names: [] } } }],
      ['an env rule that matches nothing', { ...base, spawn: { ...base.spawn, env: { kind: 'whole', rules: [{ keep: false }] } } }],
      ['a strict rule never strict', { ...base, spawn: { ...base.spawn, env: { kind: 'whole', rules: [{ keep: false, whenStrict: true }] } } }],
      ['a bad value pattern', { ...base, spawn: { ...base.spawn, env: { kind: 'whole', rules: [{ keep: false, values: ['(unclosed'] }] } } }],
      ['bad stdio', { ...base, spawn: { ...base.spawn, stdio: 'pty' as 'pipe' } }],
      ['observed with files', { ...base, observed: true }],
      ['wrong key', { ...base, name: 'codex' }],
      ['bad stderr', { ...base, spawn: { ...base.spawn, stderr: 'tty' as 'inherit' } }],
      ['a label with an @', { ...base, versions: { ...base.versions, label: 'a@b' } }],
      ['half a range', { ...base, versions: { ...base.versions, last: null } }],
      ['a range of no versions', { ...base, versions: { ...base.versions, first: 'x', last: 'y' } }],
      ['onlyIfSent of a later step', { ...base, stop: [{ kind: 'signal', name: 'SIGTERM', to: 'group', onlyIfAlive: null, onlyIfSent: 1 }, ...base.stop] }],
      ['onlyIfSent of a wait', { ...base, stop: [...base.stop, { kind: 'signal', name: 'SIGKILL', to: 'group', onlyIfAlive: null, onlyIfSent: 1 }] }],
      ['abandon with other steps', { ...base, stop: [{ kind: 'abandon' }, ...base.stop] }],
      ['bad reach', { ...base, stop: [{ kind: 'signal', name: 'SIGTERM', to: 'siblings' as 'tree', onlyIfAlive: null }] }],
    ];
    for (const [what, behaviour] of broken) expect(behaviourProblems('python-sdk', behaviour), what).not.toEqual([]);
    const gemini = CLIENT_PROFILES['gemini-cli'];
    expect(problems('gemini-cli', { ...gemini, behaviours: [...gemini.behaviours].reverse() })).toEqual(['gemini-cli: >=0.52 is not older than 0.27-0.51']);
    expect(problems('gemini-cli', { ...gemini, behaviours: [gemini.behaviours[0], gemini.behaviours[0]] })).toEqual([
      'gemini-cli: a range label twice',
      'gemini-cli: >=0.52 is not older than >=0.52',
    ]);
  });
});
