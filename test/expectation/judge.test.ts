/**
 * Judging a cleanup expectation from drill results (harness/expectation/judge.ts), both ways for
 * each kind of statement, its baseline entries (harness/expectation/baseline.ts), and how a
 * scenario declares it (schema, normalise, a subject's own in place of the scenario's).
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, parseScenario } from '../../harness/config/index.js';
import { scenarioJsonSchema } from '../../harness/config/json-schema.js';
import { STATEMENT_IDS } from '../../harness/config/statements.js';
import { applyStatementBaseline, collectStatements, updatedStatements } from '../../harness/expectation/baseline.js';
import { declaredExpectations, judgeExpectations } from '../../harness/expectation/judge.js';
import type { DeclaredExpectation } from '../../harness/expectation/types.js';
import type { CheckResult, DrillResult } from '../../harness/results/types.js';

const SERVER = { name: 'srv', command: 'node', args: ['srv.js'] };

/** The fields the judge reads of a drill result: its key, verdict, subject and checks. */
function drill(key: string, checks: Array<Pick<CheckResult, 'id' | 'verdict'> & { data?: object }>, verdict: DrillResult['verdict'] = 'pass'): DrillResult {
  return {
    key,
    verdict,
    clientProfile: 'ts-sdk',
    subject: SERVER,
    checks: checks.map((c) => ({ summary: '', data: {}, ...c })),
    survivors: [],
    incident: { server: { pid: 10 } },
  } as unknown as DrillResult;
}

const exited = (elapsedMs: number, extra: object = {}) => ({ lossAt: 1, exitAt: 1 + elapsedMs, elapsedMs, deadlineMs: 2000, code: 0, signal: null, ...extra });

function declared(...statements: DeclaredExpectation['statements']): DeclaredExpectation[] {
  return [{ server: 'srv', command: 'node', args: ['srv.js'], statements }];
}

function only(drills: DrillResult[], ...statements: DeclaredExpectation['statements']) {
  const results = judgeExpectations(declared(...statements), drills);
  if (!results) throw new Error('no expectation');
  return results.servers[0].statements;
}

describe('judging statements from drills', () => {
  it('exits-within is met by an exit in time and not met by a later one, even when the check passed', () => {
    const fast = drill('s/idle/crash', [{ id: 'exit-on-eof', verdict: 'pass', data: exited(300) }]);
    const slow = drill('s/idle/close', [{ id: 'exit-on-eof', verdict: 'pass', data: exited(1200) }]);
    expect(only([fast], { id: 'exits-within', ms: 1000 })).toEqual([
      {
        statement: 'exits-within',
        ms: 1000,
        text: 'exits within 1000 ms after its input closes',
        status: 'met',
        checks: ['exit-on-eof'],
        drills: ['s/idle/crash'],
      },
    ]);
    const [st] = only([fast, slow], { id: 'exits-within', ms: 1000 });
    expect(st.status).toBe('not met');
    expect(st.drills).toEqual(['s/idle/close']);
  });

  it('a server ended by a signal or still running does not stop accepting calls; one still running past a shorter watch could not tell', () => {
    const signalled = drill('s/idle/crash', [{ id: 'exit-on-eof', verdict: 'fail', data: exited(2400, { endedBy: 'SIGTERM from the harness' }) }], 'fail');
    const late = drill('s/idle/close', [{ id: 'exit-on-eof', verdict: 'fail', data: exited(3000) }], 'fail');
    const [stops, within] = only([signalled, late], { id: 'stops-accepting-calls' }, { id: 'exits-within', ms: 2000 });
    expect(stops).toMatchObject({ status: 'not met', drills: ['s/idle/crash'] });
    expect(within).toMatchObject({ status: 'not met', drills: ['s/idle/crash', 's/idle/close'] });
    // A late exit on its own still stops accepting calls.
    expect(only([late], { id: 'stops-accepting-calls' })[0]).toMatchObject({ status: 'met', drills: ['s/idle/close'] });
    const running = drill('s/idle/crash', [{ id: 'exit-on-eof', verdict: 'fail', data: { lossAt: 1, deadlineMs: 500, exited: false } }], 'fail');
    expect(only([running], { id: 'exits-within', ms: 5000 })[0]).toMatchObject({ status: 'not shown', couldNotTell: ['s/idle/crash'] });
    expect(only([running], { id: 'exits-within', ms: 500 })[0]).toMatchObject({ status: 'not met', drills: ['s/idle/crash'] });
  });

  it("a server the client's shutdown ended cannot tell whether it would have stopped on its own, and misses an exits-within only once its time was up", () => {
    // slow-exit in close mode: the client's SIGTERM at close-wait (2 s) comes before its own exit at 3 s.
    const shutdown = drill(
      's/idle/close',
      [{ id: 'exit-on-eof', verdict: 'fail', data: exited(2004, { endedBy: "SIGTERM from the client's shutdown", endedByWho: 'client' }) }],
      'fail',
    );
    expect(only([shutdown], { id: 'stops-accepting-calls' })[0]).toMatchObject({ status: 'not shown', couldNotTell: ['s/idle/close'] });
    expect(only([shutdown], { id: 'exits-within', ms: 2000 })[0]).toMatchObject({ status: 'not met', drills: ['s/idle/close'] });
    expect(only([shutdown], { id: 'exits-within', ms: 5000 })[0]).toMatchObject({ status: 'not shown', couldNotTell: ['s/idle/close'] });
    // The harness's signal comes after the deadline and the grace: the server was still running then.
    const harness = drill(
      's/idle/crash',
      [{ id: 'exit-on-eof', verdict: 'fail', data: exited(4010, { endedBy: 'SIGTERM from the harness', endedByWho: 'harness' }) }],
      'fail',
    );
    expect(only([harness], { id: 'stops-accepting-calls' })[0]).toMatchObject({ status: 'not met', drills: ['s/idle/crash'] });
    // Its own late exit in crash mode beside the close drill's: met, the close drill could not tell.
    const own = drill('s/idle/crash', [{ id: 'exit-on-eof', verdict: 'fail', data: exited(3000) }], 'fail');
    expect(only([own, shutdown], { id: 'stops-accepting-calls' })[0]).toMatchObject({ status: 'met', drills: ['s/idle/crash'] });
  });

  it('a statement no drill showed is not shown and names the point or mode that would show it', () => {
    const idle = drill('s/idle/crash', [{ id: 'no-survivors', verdict: 'unknown' }], 'unknown');
    expect(only([idle], { id: 'leaves-no-helper' }, { id: 'no-write-after-loss' }, { id: 'cancel-honoured' })).toEqual([
      {
        statement: 'leaves-no-helper',
        text: 'leaves no helper process behind (a child, a daemon, a container it started)',
        status: 'not shown',
        checks: ['no-survivors'],
        drills: [],
        couldNotTell: ['s/idle/crash'],
        wouldShow: {
          points: ['child-spawned'],
          modes: ['crash', 'close'],
          remote: false,
          text: 'a drill at point child-spawned in mode crash or close, with expect.no-survivors on',
        },
      },
      {
        statement: 'no-write-after-loss',
        text: 'starts no new external write after losing its client',
        status: 'not shown',
        checks: ['quiet-after-loss'],
        drills: [],
        wouldShow: {
          points: ['sent', 'confirmed'],
          modes: ['crash', 'close'],
          remote: true,
          text: 'a drill at point sent or confirmed in mode crash or close, with a remote: section the server writes to',
        },
      },
      {
        statement: 'cancel-honoured',
        text: 'honours a cancel: the cancelled call stops and is not answered',
        status: 'not shown',
        checks: ['silent-after-cancel', 'stops-after-cancel'],
        drills: [],
        wouldShow: {
          points: ['in-flight', 'sent', 'confirmed', 'child-spawned'],
          modes: ['cancel'],
          remote: false,
          text: 'a drill at point in-flight, sent, confirmed or child-spawned in mode cancel',
        },
      },
    ]);
  });

  it('leaves-no-helper: a survivor the server started is not met; the server itself outliving its client is not a helper', () => {
    const survivor = (pid: number) => ({ pid, startTime: pid, ppid: 1 });
    const serverOnly = { ...drill('s/idle/crash', [{ id: 'no-survivors', verdict: 'fail' }], 'fail'), survivors: [survivor(10)] } as DrillResult;
    const helper = { ...drill('s/idle/close', [{ id: 'no-survivors', verdict: 'fail' }], 'fail'), survivors: [survivor(10), survivor(11)] } as DrillResult;
    expect(only([serverOnly], { id: 'leaves-no-helper' })[0]).toMatchObject({ status: 'met', drills: ['s/idle/crash'] });
    expect(only([serverOnly, helper], { id: 'leaves-no-helper' })[0]).toMatchObject({ status: 'not met', drills: ['s/idle/close'] });
  });

  it('writes carry a key and a session: a keyless write or an effect without a session is not met; no write cannot tell', () => {
    const keyed = { writes: 1, keyless: [], effects: [{ id: 'e1', op: 'deploy', key: 'k', session: 's1' }], duplicates: [], retry: null };
    const ok = drill('s/sent/crash', [{ id: 'idempotent-effects', verdict: 'pass', data: keyed }]);
    const keyless = drill('s/confirmed/crash', [
      { id: 'idempotent-effects', verdict: 'fail', data: { ...keyed, keyless: [{ seq: 1, route: 'POST /x', pid: 1 }] } },
    ]);
    const sessionless = drill('s/sent/close', [
      { id: 'idempotent-effects', verdict: 'pass', data: { ...keyed, effects: [{ id: 'e2', op: 'deploy', key: 'k', session: null }] } },
    ]);
    const none = drill('s/idle/crash', [{ id: 'idempotent-effects', verdict: 'pass', data: { ...keyed, writes: 0, effects: [] } }]);
    const statement = { id: 'writes-carry-key-and-session' } as const;
    expect(only([ok, none], statement)[0]).toMatchObject({ status: 'met', drills: ['s/sent/crash'], couldNotTell: ['s/idle/crash'] });
    expect(only([ok, keyless, sessionless], statement)[0]).toMatchObject({ status: 'not met', drills: ['s/confirmed/crash', 's/sent/close'] });
  });

  it('the remote and cancel statements follow their checks; a drill that erred decides nothing', () => {
    const drills = [
      drill('s/sent/crash', [
        { id: 'quiet-after-loss', verdict: 'fail' },
        { id: 'jobs-settled', verdict: 'pass' },
        { id: 'denied-after-revocation', verdict: 'pass' },
      ]),
      drill('s/in-flight/cancel', [
        { id: 'silent-after-cancel', verdict: 'pass' },
        { id: 'stops-after-cancel', verdict: 'fail' },
      ]),
      drill('s/sent/close', [{ id: 'jobs-settled', verdict: 'fail' }], 'error'),
    ];
    const statuses = only(
      drills,
      { id: 'no-write-after-loss' },
      { id: 'remote-jobs-settle' },
      { id: 'authority-gone-at-revocation' },
      { id: 'cancel-honoured' },
    ).map((s) => `${s.statement} ${s.status} ${s.drills.join(',')}`);
    expect(statuses).toEqual([
      'no-write-after-loss not met s/sent/crash',
      'remote-jobs-settle met s/sent/crash',
      'authority-gone-at-revocation met s/sent/crash',
      'cancel-honoured not met s/in-flight/cancel',
    ]);
  });

  it('counts statements not met, and a repeated drill key once', () => {
    const a = drill('s/idle/crash', [{ id: 'no-survivors', verdict: 'fail' }], 'fail');
    const results = judgeExpectations(declared({ id: 'leaves-no-helper' }), [a, { ...a, attempt: 2 } as DrillResult]);
    expect(results?.notMet).toBe(1);
    expect(results?.servers[0].statements[0].drills).toEqual(['s/idle/crash']);
    expect(judgeExpectations([], [a])).toBeUndefined();
  });
});

describe('statements in a baseline', () => {
  const run = () =>
    judgeExpectations(declared({ id: 'stops-accepting-calls' }, { id: 'leaves-no-helper' }), [
      drill(
        's/idle/crash',
        [
          { id: 'exit-on-eof', verdict: 'pass', data: exited(10) },
          { id: 'no-survivors', verdict: 'fail' },
        ],
        'fail',
      ),
    ])!;

  it('a listed statement not met is known and does not count; a listed one met now is stale', () => {
    const results = run();
    expect(results.notMet).toBe(1);
    const info = applyStatementBaseline(results, [
      { server: 'srv', statement: 'leaves-no-helper', reason: 'the SDK keeps a helper' },
      { server: 'srv', statement: 'stops-accepting-calls', reason: 'fixed since' },
      { server: 'other', statement: 'leaves-no-helper', reason: '' },
    ]);
    expect(results.notMet).toBe(0);
    expect(results.known).toBe(1);
    expect(results.servers[0].statements[1].known).toEqual({ reason: 'the SDK keeps a helper' });
    expect(info).toEqual({ entries: 3, known: 1, stale: [{ server: 'srv', statement: 'stops-accepting-calls', reason: 'fixed since' }] });
  });

  it('an unlisted statement not met still counts', () => {
    const results = run();
    applyStatementBaseline(results, [{ server: 'srv', statement: 'exits-within', reason: '' }]);
    expect(results.notMet).toBe(1);
    expect(results.known).toBe(0);
  });

  it('collects what is not met with the reasons kept, and an update keeps entries the run did not show', () => {
    const results = run();
    expect(collectStatements(results, new Map([['srv\u0000leaves-no-helper', 'known']]))).toEqual([
      { server: 'srv', statement: 'leaves-no-helper', reason: 'known' },
    ]);
    const update = updatedStatements(
      [
        { server: 'srv', statement: 'stops-accepting-calls', reason: 'old' },
        { server: 'srv', statement: 'cancel-honoured', reason: 'not drilled here' },
      ],
      results,
    );
    expect(update).toEqual({
      statements: [
        { server: 'srv', statement: 'cancel-honoured', reason: 'not drilled here' },
        { server: 'srv', statement: 'leaves-no-helper', reason: '' },
      ],
      added: 1,
      removed: 1,
    });
  });
});

describe('declaring an expectation', () => {
  const base = 'id: s\ntarget: { call: echo }\nexpect: { exit-on-eof: { deadline: 1500 } }\n';

  it("a scenario's expectation is every subject's; a subject's own replaces it; a bare exits-within takes the exit deadline", () => {
    const scenario = parseScenario(
      `${base}expectation: [stops-accepting-calls, exits-within]\nsubjects:\n  - { name: a, command: node, args: [a.js] }\n  - { name: b, command: node, args: [b.js], expectation: [leaves-no-helper, { exits-within: 900 }] }\n`,
      '/x/s.yaml',
    );
    expect(scenario.expectation).toEqual([{ id: 'stops-accepting-calls' }, { id: 'exits-within', ms: 1500 }]);
    expect(scenario.subjects[1].expectation).toEqual([{ id: 'leaves-no-helper' }, { id: 'exits-within', ms: 900 }]);
    const declaredNow = declaredExpectations(scenario.subjects.map((subject) => ({ scenario: { ...scenario, subject } })));
    expect(declaredNow).toEqual([
      { server: 'a', command: 'node', args: ['a.js'], statements: [{ id: 'stops-accepting-calls' }, { id: 'exits-within', ms: 1500 }] },
      { server: 'b', command: 'node', args: ['b.js'], statements: [{ id: 'exits-within', ms: 900 }, { id: 'leaves-no-helper' }] },
    ]);
  });

  it('two scenarios of one server add up, the stricter exits-within winning', () => {
    const one = parseScenario(`${base}subject: { name: a, command: node, args: [a.js] }\nexpectation: [{ exits-within: 800 }]\n`, '/x/1.yaml');
    const two = parseScenario(`${base}subject: { name: a, command: node, args: [a.js] }\nexpectation: [exits-within, leaves-no-helper]\n`, '/x/2.yaml');
    expect(declaredExpectations([{ scenario: two }, { scenario: one }])).toEqual([
      { server: 'a', command: 'node', args: ['a.js'], statements: [{ id: 'exits-within', ms: 800 }, { id: 'leaves-no-helper' }] },
    ]);
  });

  it('the JSON Schema the build writes carries it, on the scenario and on each subject', () => {
    type Node = { properties: Record<string, Node>; items: { anyOf: Array<{ enum?: string[] }> }; description?: string };
    const schema = scenarioJsonSchema() as unknown as Node;
    expect(schema.properties.expectation.items.anyOf[0].enum).toEqual([...STATEMENT_IDS]);
    expect(schema.properties.expectation.description).toMatch(/^The server's cleanup expectation/);
    expect(schema.properties.subject.properties.expectation.items.anyOf[0].enum).toEqual([...STATEMENT_IDS]);
  });

  it('an unknown or repeated statement is a config error naming the field', () => {
    const problems = (text: string) => {
      try {
        parseScenario(text, '/x/s.yaml');
      } catch (e) {
        if (e instanceof ConfigError) return e.problems.map((p) => `${p.field}: ${p.message}`);
        throw e;
      }
      return [];
    };
    const subject = 'subject: { command: node }\n';
    expect(problems(`${base}${subject}expectation: [exits-whenever]`)[0]).toMatch(
      /^expectation\[0\]: expected a statement \(stops-accepting-calls, exits-within,/,
    );
    expect(problems(`${base}${subject}expectation: [exits-within, { exits-within: 10 }]`)).toEqual([
      'expectation[1]: duplicate statement "exits-within"; list each once',
    ]);
  });
});
