/**
 * `crash-drill init` writes a starting cleanup expectation (harness/init/render.ts): the
 * statements its first run's modes can show, with the exit deadline the drills use, that load
 * back as written; a tool that may write is told which statements to add once its writes reach
 * the drill remote.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../harness/config/index.js';
import { DEFAULT_EXIT_DEADLINE_MS } from '../../harness/config/normalise.js';
import { statementDef } from '../../harness/expectation/statements.js';
import { scenarioText, STARTING_EXPECTATION } from '../../harness/init/render.js';

const server = { command: 'node', args: ['server.js'], cwd: '/p' };

function written(annotations: Tool['annotations']) {
  const text = scenarioText({
    tool: { name: 'echo', inputSchema: { type: 'object' }, annotations } as Tool,
    id: 'echo',
    server: server as Parameters<typeof scenarioText>[0]['server'],
    scenarioDir: '/p/scenarios',
    projectDir: '/p',
  });
  return { text, scenario: parseScenario(text, '/p/scenarios/echo.yaml') };
}

describe("init's starting expectation", () => {
  it('loads back as the statements a first run can show, exits-within at the exit deadline', () => {
    const { text, scenario } = written({ readOnlyHint: true });
    expect(text).toContain(`expectation: [stops-accepting-calls, {exits-within: ${DEFAULT_EXIT_DEADLINE_MS}}, leaves-no-helper]\n`);
    expect(scenario.expectation).toEqual([
      { id: 'stops-accepting-calls' },
      { id: 'exits-within', ms: scenario.expect.exitOnEof?.deadline },
      { id: 'leaves-no-helper' },
    ]);
    // Every starting statement is shown in a mode the first run drills, without the drill remote.
    for (const s of STARTING_EXPECTATION) {
      const def = statementDef(typeof s === 'string' ? s : 'exits-within');
      expect(def.shownBy.remote).toBe(false);
      expect(def.shownBy.modes.some((m) => scenario.modes.includes(m))).toBe(true);
    }
    expect(text).not.toContain('no-write-after-loss');
  });

  it('a tool that may write is told which statements to add once its writes reach the remote', () => {
    const { text } = written({});
    expect(text).toContain(
      "# This server's cleanup expectation: each run says of each statement met, not met or not shown.\n# Once its writes reach the drill remote (below), add no-write-after-loss and writes-carry-key-and-session.\nexpectation: [",
    );
  });
});
