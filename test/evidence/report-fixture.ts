/**
 * A realistic report folder for the verify/check/report end-to-end tests: the real CLI `run` on
 * five small scenarios, one per outcome (pass; fail on exit-on-eof and no-survivors; fail on
 * denied-after-revocation; unknown; error). Deadlines are short so the run stays fast.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, type CliRun } from '../support/cli.js';
import { tempDir } from '../support/temp-dir.js';
import { SCENARIOS } from '../reports/fixtures/cli-run.js';

/** The same five scenarios as the reporters' fixture: one realistic report folder shape for every test. */
export const FIXTURE_SCENARIOS: Record<string, string> = SCENARIOS;

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
