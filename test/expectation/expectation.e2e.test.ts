/**
 * The cleanup expectation end to end, with the real CLI and the fake servers: two servers side
 * by side (`--subject` twice), each statement met, not met or not shown (naming the point or
 * mode that would show it) in results.json, summary.md, junit.xml and the console; the exit code; the
 * baseline both ways; and a statement stricter than its check failing a run whose drills pass.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ExpectationResults, RunResults } from '../../harness/results/types.js';
import { packageRoot } from '../../harness/util/paths.js';
import { runCli, type CliRun } from '../support/cli.js';
import { fakeSubject, scenarioYaml } from '../support/scenarios.js';
import { tempDir } from '../support/temp-dir.js';

const root = packageRoot();
const WB = join(root, 'dist/fake-servers/well-behaved.js');
const IE = join(root, 'dist/fake-servers/ignores-eof.js');

/** Short, but with room for a loaded 2-core machine: the statements must not depend on timing. */
const FAST = { expect: { 'exit-on-eof': { deadline: 1500 }, 'no-survivors': { grace: 800 } }, timeouts: { 'close-wait': 800 } } as const;

const SCENARIO = scenarioYaml({
  id: 'side',
  subject: fakeSubject('well-behaved'),
  target: { call: 'echo', args: { text: 'hi' } },
  points: ['idle'],
  modes: ['crash'],
  ...FAST,
  expectation: ['stops-accepting-calls', 'exits-within', 'leaves-no-helper', 'no-write-after-loss', 'cancel-honoured'],
});

const NO_WRITE_SHOWN_BY = {
  points: ['sent', 'confirmed'],
  modes: ['crash', 'close'],
  remote: true,
  text: 'a drill at point sent or confirmed in mode crash or close, with a remote: section the server writes to',
};
const CANCEL_SHOWN_BY = {
  points: ['in-flight', 'sent', 'confirmed', 'child-spawned'],
  modes: ['cancel'],
  remote: false,
  text: 'a drill at point in-flight, sent, confirmed or child-spawned in mode cancel',
};

function expectationOf(server: string, file: string, status: 'met' | 'not met') {
  const drills = [`side/${server}/idle/crash`];
  return {
    server,
    command: 'node',
    args: [file],
    statements: [
      {
        statement: 'stops-accepting-calls',
        text: 'stops accepting calls after its input closes (it exits on its own)',
        status,
        checks: ['exit-on-eof'],
        drills,
      },
      { statement: 'exits-within', ms: 1500, text: 'exits within 1500 ms after its input closes', status, checks: ['exit-on-eof'], drills },
      // ignores-eof's only survivor is itself: no helper, which the exit statements already name.
      {
        statement: 'leaves-no-helper',
        text: 'leaves no helper process behind (a child, a daemon, a container it started)',
        status: 'met',
        checks: ['no-survivors'],
        drills,
      },
      {
        statement: 'no-write-after-loss',
        text: 'starts no new external write after losing its client',
        status: 'not shown',
        checks: ['quiet-after-loss'],
        drills: [],
        wouldShow: NO_WRITE_SHOWN_BY,
      },
      {
        statement: 'cancel-honoured',
        text: 'honours a cancel: the cancelled call stops and is not answered',
        status: 'not shown',
        checks: ['silent-after-cancel', 'stops-after-cancel'],
        drills: [],
        wouldShow: CANCEL_SHOWN_BY,
      },
    ],
  };
}

let dir: string;

async function run(name: string, extra: string[] = []): Promise<{ cli: CliRun; results: RunResults; out: string }> {
  const out = join(dir, name);
  const cli = await runCli([
    'run',
    join(dir, 'scenarios'),
    '--subject',
    `node ${WB}`,
    '--subject',
    `node ${IE}`,
    '--out',
    out,
    '--reporter',
    'console',
    '--reporter',
    'markdown',
    '--reporter',
    'junit',
    ...extra,
  ]);
  const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as RunResults;
  return { cli, results, out };
}

let first: Awaited<ReturnType<typeof run>>;

beforeAll(async () => {
  dir = tempDir('crash-drill-expectation-');
  const scenarios = join(dir, 'scenarios');
  mkdirSync(scenarios);
  writeFileSync(join(scenarios, 'side.yaml'), SCENARIO);
  first = await run('first');
}, 120_000);

describe('two servers side by side', () => {
  it('results.json holds each server expectation: met for well-behaved, not met for ignores-eof, not shown with the point or mode that would show it', () => {
    const { results, cli } = first;
    expect(results.summary, `${cli.stdout}\n${cli.stderr}`).toEqual({ pass: 1, fail: 1, unknown: 0, error: 0 });
    const expected: ExpectationResults = {
      servers: [expectationOf('well-behaved.js', WB, 'met'), expectationOf('ignores-eof.js', IE, 'not met')] as ExpectationResults['servers'],
      notMet: 2,
    };
    expect(results.expectation).toEqual(expected);
    // The section comes after the run's own, and the rest of results.json keeps its shape.
    expect(Object.keys(results)).toEqual([
      'version',
      'harness',
      'runId',
      'startedAt',
      'finishedAt',
      'interrupted',
      'summary',
      'stale',
      'drills',
      'plan',
      'flaky',
      'requirements',
      'expectation',
    ]);
  });

  it('summary.md sets the servers side by side, then each statement with its drills or the point that would show it', () => {
    const md = readFileSync(join(first.out, 'summary.md'), 'utf8');
    const section = md.slice(md.indexOf('## Cleanup expectation'), md.indexOf('## Failed drills'));
    expect(section).toBe(
      [
        '## Cleanup expectation',
        '',
        "Each server's statements: met, not met or not shown, and the drills that decide them. 2 statements not met fail the run.",
        '',
        '| statement | well-behaved.js | ignores-eof.js |',
        '| --- | :---: | :---: |',
        '| stops accepting calls after its input closes | ✅ met, 1 drill | ❌ not met, 1 drill |',
        '| exits within N ms after its input closes | ✅ met (1500 ms), 1 drill | ❌ not met (1500 ms), 1 drill |',
        '| leaves no helper process behind | ✅ met, 1 drill | ✅ met, 1 drill |',
        '| no new external write after losing its client | ❔ not shown | ❔ not shown |',
        '| cancel honoured | ❔ not shown | ❔ not shown |',
        '',
        ...['well-behaved.js', 'ignores-eof.js'].flatMap((server) => {
          const [status, icon] = server === 'well-behaved.js' ? ['met', '✅'] : ['not met', '❌'];
          const key = `\`side/${server}/idle/crash\``;
          return [
            `### ${server}`,
            '',
            `\`node ${server === 'well-behaved.js' ? WB : IE}\``,
            '',
            `- ${icon} **${status}** stops accepting calls after its input closes (it exits on its own): ${key}`,
            `- ${icon} **${status}** exits within 1500 ms after its input closes: ${key}`,
            `- ✅ **met** leaves no helper process behind (a child, a daemon, a container it started): ${key}`,
            '- ❔ **not shown** starts no new external write after losing its client: would be shown by a drill at point sent or confirmed in mode crash or close, with a remote: section the server writes to',
            '- ❔ **not shown** honours a cancel: the cancelled call stops and is not answered: would be shown by a drill at point in-flight, sent, confirmed or child-spawned in mode cancel',
            '',
          ];
        }),
        '',
      ].join('\n'),
    );
  });

  it('junit.xml has a suite cleanup expectation: a testcase per server and statement, failed where not met, skipped where not shown', () => {
    const xml = readFileSync(join(first.out, 'junit.xml'), 'utf8');
    const start = xml.indexOf('  <testsuite name="cleanup expectation"');
    const suite = xml.slice(start, xml.indexOf('  </testsuite>\n', start));
    const testcase = (server: string, text: string, checks: string, outcome: string, drills = true) =>
      [
        `    <testcase name="${server}: ${text}" classname="cleanup expectation" time="0.000">`,
        ...(outcome ? [outcome] : []),
        `      <system-out>checks: ${checks}`,
        ...(drills ? [`drills: side/${server}/idle/crash`] : []),
        '</system-out>',
        '    </testcase>',
      ].join('\n');
    const notMet = (server: string, text: string) =>
      `      <failure message="not met: ${text}" type="expectation-not-met">${server} ${text}: not met, shown by side/${server}/idle/crash\n</failure>`;
    const notShown = (text: string) => `      <skipped message="not shown: would be shown by ${text}" type="not-shown"/>`;
    const cases = (server: string, met: boolean) => [
      testcase(
        server,
        'stops accepting calls after its input closes (it exits on its own)',
        'exit-on-eof',
        met ? '' : notMet(server, 'stops accepting calls after its input closes (it exits on its own)'),
      ),
      testcase(server, 'exits within 1500 ms after its input closes', 'exit-on-eof', met ? '' : notMet(server, 'exits within 1500 ms after its input closes')),
      testcase(server, 'leaves no helper process behind (a child, a daemon, a container it started)', 'no-survivors', ''),
      testcase(server, 'starts no new external write after losing its client', 'quiet-after-loss', notShown(NO_WRITE_SHOWN_BY.text), false),
      testcase(
        server,
        'honours a cancel: the cancelled call stops and is not answered',
        'silent-after-cancel, stops-after-cancel',
        notShown(CANCEL_SHOWN_BY.text),
        false,
      ),
    ];
    expect(start).toBeGreaterThan(0);
    expect(suite).toBe(
      [
        `  <testsuite name="cleanup expectation" tests="10" failures="2" errors="0" skipped="4" time="0.000" timestamp="${first.results.startedAt}" id="1">`,
        '    <properties>',
        `      <property name="run-id" value="${first.results.runId}"/>`,
        `      <property name="well-behaved.js command" value="node ${WB}"/>`,
        `      <property name="ignores-eof.js command" value="node ${IE}"/>`,
        '    </properties>',
        ...cases('well-behaved.js', true),
        ...cases('ignores-eof.js', false),
        '',
      ].join('\n'),
    );
  });

  it('the console names what is not met and the run exits 1', () => {
    expect(first.cli.code).toBe(1);
    const tail = first.cli.stdout.slice(first.cli.stdout.indexOf('\nCleanup expectation:\n'));
    expect(tail.replace(/ +\n/g, '\n')).toBe(
      [
        '',
        'Cleanup expectation:',
        '                                                 well-behaved.js  ignores-eof.js',
        '  stops accepting calls after its input closes   met              not met',
        '  exits within N ms after its input closes       met (1500 ms)    not met (1500 ms)',
        '  leaves no helper process behind                met              met',
        '  no new external write after losing its client  not shown        not shown',
        '  cancel honoured                                not shown        not shown',
        '',
        'Cleanup expectation not met (fails the run):',
        '  ignores-eof.js: stops accepting calls after its input closes (it exits on its own) (side/ignores-eof.js/idle/crash)',
        '  ignores-eof.js: exits within 1500 ms after its input closes (side/ignores-eof.js/idle/crash)',
        '',
        `Reports in ${first.out}/: summary.md, junit.xml, results.json`,
        '',
        '1 passed, 1 failed, 0 unknown',
        '',
      ].join('\n'),
    );
  });
});

describe('statements in a baseline, as checks are', () => {
  it('crash-drill baseline --from lists the statements not met beside the checks, and says so', async () => {
    const file = join(dir, 'from.json');
    const cli = await runCli(['baseline', '--from', first.out, '--out', file]);
    expect(cli.code, cli.stderr).toBe(0);
    expect(cli.stderr).toContain('crash-drill: baseline: and 2 cleanup-expectation statements not met (statements); fill in their "reason" too\n');
    expect(JSON.parse(readFileSync(file, 'utf8')).statements).toEqual(
      ['exits-within', 'stops-accepting-calls'].map((statement) => ({ server: 'ignores-eof.js', statement, reason: '' })),
    );
  });

  const checks = ['exit-on-eof', 'no-survivors'].map((check) => ({ drill: 'side/ignores-eof.js/idle/crash', check, verdict: 'fail', reason: 'SDK 1.x' }));
  const statements = ['exits-within', 'stops-accepting-calls'].map((statement) => ({
    server: 'ignores-eof.js',
    statement,
    reason: 'SDK 1.x',
  }));

  it('with every statement not met listed, the run passes; without them it fails though the checks are listed', async () => {
    const file = join(dir, 'all.json');
    writeFileSync(file, JSON.stringify({ version: 1, entries: checks, statements }));
    const known = await run('known', ['--baseline', file]);
    expect(known.cli.code, known.cli.stdout).toBe(0);
    expect(known.results.expectation?.notMet).toBe(0);
    expect(known.results.expectation?.known).toBe(2);
    expect(known.results.expectation?.servers[1].statements[0].known).toEqual({ reason: 'SDK 1.x' });
    expect(known.results.baseline).toEqual({
      file: expect.stringContaining('all.json'),
      entries: 2,
      known: 2,
      stale: [],
      statements: { entries: 2, known: 2, stale: [] },
    });
    expect(readFileSync(join(known.out, 'summary.md'), 'utf8')).toContain(
      '| stops accepting calls after its input closes | ✅ met, 1 drill | 🔷 known, 1 drill |',
    );

    const checksOnly = join(dir, 'checks.json');
    writeFileSync(checksOnly, JSON.stringify({ version: 1, entries: checks }));
    const unlisted = await run('unlisted', ['--baseline', checksOnly]);
    expect(unlisted.results.summary).toMatchObject({ pass: 1, fail: 0, known: 1 });
    expect(unlisted.results.expectation?.notMet).toBe(2);
    expect(unlisted.cli.code).toBe(1);
  }, 120_000);

  it('a listed statement met now is stale and fails the run; --update-baseline removes it and lists what is not met', async () => {
    const file = join(dir, 'stale.json');
    writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        entries: checks,
        statements: [...statements, { server: 'well-behaved.js', statement: 'leaves-no-helper', reason: 'was leaky' }],
      }),
    );
    const stale = await run('stale', ['--baseline', file]);
    expect(stale.results.baseline?.statements).toEqual({
      entries: 3,
      known: 2,
      stale: [{ server: 'well-behaved.js', statement: 'leaves-no-helper', reason: 'was leaky' }],
    });
    expect(stale.cli.code).toBe(1);
    expect(readFileSync(join(stale.out, 'summary.md'), 'utf8')).toContain('- well-behaved.js **leaves-no-helper**: listed as not met, now met');

    const rewritten = await run('rewritten', ['--baseline', file, '--update-baseline']);
    expect(rewritten.cli.code).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8')).statements).toEqual(statements);
  }, 120_000);
});

describe('a statement stricter than its check', () => {
  it('exits-within under the exit deadline: the drill passes, the statement is not met, the run exits 1', async () => {
    const scenarios = tempDir('crash-drill-expectation-strict-');
    writeFileSync(
      join(scenarios, 'slow.yaml'),
      scenarioYaml({
        id: 'slow',
        subject: fakeSubject('slow-exit', { FAKE_EXIT_DELAY_MS: '600' }),
        target: { call: 'echo', args: { text: 'hi' } },
        points: ['idle'],
        modes: ['crash'],
        expect: { 'exit-on-eof': { deadline: 4000 }, 'no-survivors': { grace: 800 } },
        expectation: ['stops-accepting-calls', { 'exits-within': 200 }],
      }),
    );
    const out = join(scenarios, 'out');
    const cli = await runCli(['run', scenarios, '--out', out]);
    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as RunResults;
    expect(results.summary, cli.stdout).toEqual({ pass: 1, fail: 0, unknown: 0, error: 0 });
    expect(results.expectation?.servers[0].statements.map((s) => `${s.statement} ${s.status} ${s.drills.join(',')}`)).toEqual([
      'stops-accepting-calls met slow/idle/crash',
      'exits-within not met slow/idle/crash',
    ]);
    expect(cli.code).toBe(1);
    expect(cli.stdout).toContain('  slow-exit: exits within 200 ms after its input closes (slow/idle/crash)\n');
  }, 120_000);
});

describe('leaves-no-helper both ways', () => {
  it('leaks-child exits on EOF but its helper survives: it stops accepting calls and leaves a helper', async () => {
    const scenarios = tempDir('crash-drill-expectation-helper-');
    writeFileSync(
      join(scenarios, 'leaks.yaml'),
      scenarioYaml({
        id: 'leaks',
        subject: fakeSubject('leaks-child'),
        target: { call: 'spawn-helper' },
        points: ['child-spawned'],
        modes: ['crash'],
        ...FAST,
        expectation: ['stops-accepting-calls', 'leaves-no-helper'],
      }),
    );
    const out = join(scenarios, 'out');
    const cli = await runCli(['run', scenarios, '--out', out]);
    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as RunResults;
    expect(
      results.expectation?.servers[0].statements.map((s) => `${s.statement} ${s.status} ${s.drills.join(',')}`),
      cli.stdout,
    ).toEqual(['stops-accepting-calls met leaks/child-spawned/crash', 'leaves-no-helper not met leaks/child-spawned/crash']);
    expect(cli.code).toBe(1);
  }, 120_000);
});
