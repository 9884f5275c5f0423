/**
 * A realistic report folder for the verify/check/report end-to-end tests: the real CLI `run` on
 * five small scenarios, one per outcome (pass; fail on exit-on-eof and no-survivors; fail on
 * denied-after-revocation; unknown; error). Deadlines are short so the run stays fast.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, type CliRun } from '../support/cli.js';
import { subjectYaml, tempDir, type FakeServer } from '../support/scenarios.js';

const FAST = 'expect: { exit-on-eof: { deadline: 800 }, no-survivors: { grace: 400 } }\ntimeouts: { close-wait: 800 }';

export const FIXTURE_SCENARIOS: Record<string, string> = {
  'wb.yaml': ['id: wb', subjectYaml('well-behaved'), 'target: { call: echo, args: { text: hi } }', 'points: [idle]', 'modes: [crash]', FAST].join('\n'),
  'ie.yaml': ['id: stays-up', subjectYaml('ignores-eof'), 'target: { call: echo, args: { text: hi } }', 'points: [idle]', 'modes: [crash]', FAST].join('\n'),
  'sk.yaml': [
    'id: key-holder',
    subjectYaml('static-key-holder' as FakeServer, { CRASH_DRILL_API_KEY: '{{remote.apiKey}}' }),
    'target: { call: write, args: { op: deploy, target: web } }',
    'points: [idle]',
    'modes: [crash]',
    'remote: {}',
    FAST,
  ].join('\n'),
  'un.yaml': ['id: no-child', subjectYaml('well-behaved'), 'target: { call: echo, args: { text: hi } }', 'points: [child-spawned]', 'modes: [crash]', 'timeouts: { point: 500 }'].join('\n'),
  'er.yaml': ['id: missing', 'subject: { command: /nonexistent/mcp-server }', 'target: { call: echo }', 'points: [idle]', 'modes: [crash]'].join('\n'),
};

export interface ReportFixture {
  dir: string;
  out: string;
  run: CliRun;
}

/** Runs the real CLI once; the report folder is `<dir>/out`. */
export async function makeReportFolder(): Promise<ReportFixture> {
  const dir = tempDir('crash-drill-i4a-');
  for (const [name, text] of Object.entries(FIXTURE_SCENARIOS)) writeFileSync(join(dir, name), text);
  const out = join(dir, 'out');
  const run = await runCli(['run', dir, '--out', out, '--concurrency', '2']);
  return { dir, out, run };
}
