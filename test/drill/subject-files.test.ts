/**
 * subject.files: each file is written into the drill's temp folder, mode 0600, before the server
 * starts, with its templates filled in (`{{files.<name>}}` is its path, in env and in other
 * files); the recovery retry writes it again with its own session's token; its contents appear
 * in no evidence and no result, and the file goes with the temp folder.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventsOf } from '../../harness/evidence/types.js';
import { planRun } from '../../harness/plan/plan.js';
import { runPlan } from '../../harness/run/run-plan.js';
import { packageRoot } from '../../harness/util/paths.js';
import { scenarioFrom, scenarioYaml } from '../support/scenarios.js';

const MARKER = 'subject-file-marker-7f3a';
const SERVER = join(packageRoot(), 'dist/fake-servers/well-behaved.js');
// Before the server starts: the file's mode, whether it holds the marker, its rendered URL and
// token lengths (the token itself would be redacted), and the other file's path as the first names it.
const PROBE = [
  'stat -c "mode=%a" "$CFG" >&2',
  // The first line's digest, so the marker itself is on no command line the evidence records.
  'head -n 1 "$CFG" | sha256sum | cut -c1-16 | sed "s/^/first=/" >&2',
  `grep -o 'url=https://127.0.0.1:[0-9]*' "$CFG" >&2`,
  'grep -o "other=$OTHER" "$CFG" | sed "s|$OTHER|OTHER|" >&2',
  'echo "path=$CFG" >&2',
  `exec node ${SERVER}`,
].join('; ');

describe('subject files', () => {
  it('are written 0600 before the server starts, rendered, rewritten for the retry, and never recorded', async () => {
    const scenario = scenarioFrom(
      scenarioYaml({
        id: 'files',
        subject: {
          command: 'sh',
          args: ['-c', PROBE],
          env: { CFG: '{{files.config.yaml}}', OTHER: '{{files.other}}' },
          files: { 'config.yaml': `${MARKER}\nurl={{remote.httpsUrl}}\ntoken={{session.token}}\nother={{files.other}}\n`, other: 'second' },
        },
        target: { call: 'write', args: { op: 'deploy', target: 'web' } },
        points: ['sent'],
        modes: ['crash'],
        remote: {},
      }),
    );
    const { results, evidence } = await runPlan(planRun([scenario]), { concurrency: 1, client: 'inprocess', containTermWaitMs: 500 });
    const [drill] = results.drills;
    expect(drill.verdict).toBe('pass');
    const stderr = eventsOf(evidence[0], 'subject-stderr')
      .map((e) => e.text)
      .join('');
    const lines = stderr.split('\n').filter((l) => /^(mode|first|url|other|path)=/.test(l));
    const path = lines.find((l) => l.startsWith('path='))!.slice('path='.length);
    expect(lines.filter((l) => !l.startsWith('path='))).toEqual([
      'mode=600',
      `first=${createHash('sha256').update(`${MARKER}\n`).digest('hex').slice(0, 16)}`,
      expect.stringMatching(/^url=https:\/\/127\.0\.0\.1:\d+$/),
      'other=OTHER',
    ]);
    expect(path).toMatch(/\/crash-drill-cd-[^/]+\/config\.yaml$/);
    // The retry's server read its own file: the same checks again.
    // The retry's server started on its own file: its session's, written again before it.
    expect(eventsOf(evidence[0], 'retry').filter((e) => e.event.type === 'subject-spawned')).toHaveLength(1);
    expect(eventsOf(evidence[0], 'retry-end')[0]?.ok).toBe(true);
    expect(JSON.stringify(evidence)).not.toContain(MARKER);
    expect(JSON.stringify(results)).not.toContain(MARKER);
    expect(existsSync(path)).toBe(false);
  }, 60_000);
});
