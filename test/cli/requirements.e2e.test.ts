/**
 * `crash-drill requirements`: every check and every statement tied to what it tests, and that tie
 * shown with each check in results.json, summary.md, junit.xml and report.html.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../harness/checks/all-checks.js';
import { STATEMENT_IDS } from '../../harness/config/statements.js';
import type { RequirementsList } from '../../harness/results/types.js';
import { runCli } from '../support/cli.js';
import { fakeSubject, scenarioYaml } from '../support/scenarios.js';
import { tempDir } from '../support/temp-dir.js';

const STDIO = 'https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/stdio';

describe('crash-drill requirements', () => {
  it('--json ties exit-on-eof to the spec SHOULD, stdout-clean to a MUST, the cancel checks to the conformance row, the rest to practice with a reason', async () => {
    const run = await runCli(['requirements', '--json']);
    expect(run.code).toBe(0);
    const list = JSON.parse(run.stdout) as RequirementsList;
    expect(list.checks.map((c) => c.id)).toEqual(CHECKS.map((c) => c.id));
    expect(list.statements.map((s) => s.id)).toEqual([...STATEMENT_IDS]);
    const of = (id: string) => list.checks.find((c) => c.id === id)!.requirement;
    expect(of('exit-on-eof')).toMatchObject({ source: 'spec', level: 'SHOULD', revision: '2026-07-28', url: `${STDIO}#shutdown` });
    expect(of('exit-on-eof').text).toContain('Servers SHOULD exit promptly when their standard input is closed or reads return end-of-file.');
    expect(of('stdout-clean')).toMatchObject({ source: 'spec', level: 'MUST', url: STDIO });
    expect(of('stdout-clean').text).toBe('The server MUST NOT write anything to its stdout that is not a valid MCP message.');
    for (const id of ['silent-after-cancel', 'stops-after-cancel'])
      expect(of(id)).toMatchObject({ source: 'conformance', id: 'sep-2575-stdio-server-stops-on-cancel', url: `${STDIO}#cancellation` });
    expect([of('silent-after-cancel').level, of('stops-after-cancel').level]).toEqual(['MUST', 'SHOULD']);
    for (const id of ['no-survivors', 'idempotent-effects', 'denied-after-revocation', 'quiet-after-loss', 'jobs-settled', 'activity-recorded']) {
      expect(of(id)).toMatchObject({ source: 'practice', level: null, url: null, revision: null });
      expect(of(id).reason?.length, id).toBeGreaterThan(40);
    }
    // Every requirement of the spec or the suite says where it was read; every one of practice says why.
    for (const { id, requirement: r } of [...list.checks, ...list.statements]) {
      if (r.source === 'practice') expect(r.reason, id).toBeTruthy();
      else expect([r.url, r.revision, r.readFrom].every(Boolean), id).toBe(true);
    }
    expect(list.statements.find((s) => s.id === 'exits-within')!.requirement).toEqual(of('exit-on-eof'));
    expect(list.statements.find((s) => s.id === 'cancel-honoured')!.requirement.id).toBe('sep-2575-stdio-server-stops-on-cancel');
  });

  it('prints the same for a person, a check a line', async () => {
    const run = await runCli(['requirements']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`  exit-on-eof\n    spec 2026-07-28 SHOULD: Servers SHOULD exit promptly`);
    expect(run.stdout).toContain('  silent-after-cancel\n    conformance sep-2575-stdio-server-stops-on-cancel MUST: ');
    expect(run.stdout).toContain('  jobs-settled\n    practice: ');
  });

  it('a run shows each failed check with its requirement: results.json, summary.md, junit.xml, report.html', async () => {
    const dir = tempDir('crash-drill-requirements-');
    mkdirSync(join(dir, 'scenarios'));
    writeFileSync(
      join(dir, 'scenarios', 'eof.yaml'),
      scenarioYaml({
        id: 'stays-up',
        subject: fakeSubject('ignores-eof'),
        target: { call: 'echo', args: { text: 'hi' } },
        points: ['idle'],
        modes: ['crash'],
        expect: { 'exit-on-eof': { deadline: 800 }, 'no-survivors': { grace: 400 } },
      }),
    );
    const out = join(dir, 'out');
    const run = await runCli(['run', join(dir, 'scenarios'), '--out', out, '--reporter', 'markdown,junit,html']);
    expect(run.code).toBe(1);
    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8'));
    expect(results.requirements.checks.find((c: { id: string }) => c.id === 'exit-on-eof').requirement.level).toBe('SHOULD');
    const summary = readFileSync(join(out, 'summary.md'), 'utf8');
    // Each failed check's summary under its drill, then what each check requires, once.
    expect(summary).toMatch(/\n {2}- \*\*exit-on-eof\*\*: .*\n/);
    expect(summary).toMatch(/\nWhat the failed checks require:\n\n(- .*\n)*- \*\*exit-on-eof\*\*: spec 2026-07-28 SHOULD: Servers SHOULD exit promptly/);
    expect(summary).toMatch(/\nWhat the failed checks require:\n\n(- .*\n)*- \*\*no-survivors\*\*: practice: /);
    const junit = readFileSync(join(out, 'junit.xml'), 'utf8');
    expect(junit).toContain('<property name="requirement exit-on-eof" value="spec 2026-07-28 SHOULD: Servers SHOULD exit promptly');
    expect(junit).toContain('<property name="requirement stdout-clean" value="spec 2026-07-28 MUST: ');
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).toContain('<a href="#requirement-exit-on-eof"><code>exit-on-eof</code></a>');
    expect(html).toMatch(/<tr id="requirement-exit-on-eof"><td><code>exit-on-eof<\/code><\/td><td>spec 2026-07-28 <strong>SHOULD<\/strong><\/td>/);
  }, 60_000);
});
