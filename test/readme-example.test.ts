// The README's vitest example, as written (test/readme.test.ts keeps the two identical).
import { expect, it } from 'vitest';
import { runDrills } from 'mcp-crash-drill';
import { crashDrillMatchers } from 'mcp-crash-drill/vitest';

expect.extend(crashDrillMatchers);

it('my server cleans up after a client crash', async () => {
  const { results } = await runDrills({ scenarios: ['scenarios/well-behaved.yaml'], points: ['after-response'], modes: ['crash'] });
  const [drill] = results.drills;
  expect(drill).toExitOnEof();
  expect(drill).toLeaveNoSurvivors();
  expect(drill).toKeepStdoutClean();
}, 60_000);
