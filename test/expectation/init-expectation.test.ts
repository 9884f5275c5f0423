/**
 * `crash-drill init` writes a starting cleanup expectation (harness/init/render.ts) in the
 * server's lifecycle scenario: the statements its first run's modes can show, with the exit
 * deadline the drills use, that load back as written. A read-only tool's scenario declares none
 * (statements are judged per server from every drill of the server); one that may write states
 * records-every-action and is told which statements to add once its writes reach the drill remote.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../harness/config/index.js';
import { DEFAULT_EXIT_DEADLINE_MS } from '../../harness/config/normalise.js';
import { statementDef } from '../../harness/expectation/statements.js';
import { lifecycleText, STARTING_EXPECTATION, toolScenarioText } from '../../harness/init/render.js';

const server = { command: 'node', args: ['server.js'], cwd: '/p' };
const common = { server, fileDir: '/p/scenarios', projectDir: '/p' };
const tool = (name: string, annotations: Tool['annotations']) => ({ name, inputSchema: { type: 'object' }, annotations }) as Tool;

function lifecycle(tools: Tool[]) {
  const text = lifecycleText({ ...common, id: 'lifecycle', tools });
  return { text, scenario: parseScenario(text, '/p/scenarios/lifecycle.yaml') };
}

describe("init's starting expectation", () => {
  it('loads back from the lifecycle scenario as the statements a first run can show, exits-within at the exit deadline', () => {
    const { text, scenario } = lifecycle([tool('echo', { readOnlyHint: true })]);
    expect(text).toContain(`expectation: [stops-accepting-calls, {exits-within: ${DEFAULT_EXIT_DEADLINE_MS}}, leaves-no-helper]\n`);
    expect(scenario.expectation).toEqual([
      { id: 'stops-accepting-calls' },
      { id: 'exits-within', ms: scenario.expect.exitOnEof?.deadline },
      { id: 'leaves-no-helper' },
    ]);
    // Every starting statement is shown at a point and in a mode the lifecycle drills, without the drill remote.
    for (const s of STARTING_EXPECTATION) {
      const def = statementDef(typeof s === 'string' ? s : 'exits-within');
      expect(def.shownBy.remote).toBe(false);
      expect(def.shownBy.modes.some((m) => scenario.modes.includes(m))).toBe(true);
    }
    expect(text).not.toContain('no-write-after-loss');
  });

  it("names any tool as the lifecycle's target, one that may write when there is one, and says it does not matter", () => {
    expect(lifecycle([tool('look', { readOnlyHint: true }), tool('save', {}), tool('drop', {})]).scenario.target?.call).toBe('save');
    const { text, scenario } = lifecycle([tool('look', { readOnlyHint: true })]);
    expect(scenario.target?.call).toBe('look');
    expect(scenario.points).toEqual(['idle', 'pre-dispatch']);
    expect(text).toContain('# Any tool of the server: at idle and pre-dispatch the client is killed before this call is written.\ntarget:\n');
    expect(scenario.description).toContain('which tool is the target does not matter');
  });

  it("a read-only tool's scenario declares none; one that may write states records-every-action, with how, and what to add once its writes reach the remote", () => {
    const read = toolScenarioText({ ...common, id: 'look', tool: tool('look', { readOnlyHint: true }) });
    expect(parseScenario(read, '/p/scenarios/look.yaml').expectation).toBeUndefined();
    expect(read).not.toContain('expectation');
    const write = toolScenarioText({ ...common, id: 'save', tool: tool('save', {}) });
    const save = parseScenario(write, '/p/scenarios/save.yaml');
    expect([save.points, save.expectation]).toEqual([['in-flight', 'after-response'], [{ id: 'records-every-action' }]]);
    expect(write).toContain('# CRASH_DRILL_ACTIVITY_FILE (key: the Idempotency-Key it sends');
    expect(write).toContain('\nexpectation: [records-every-action]\n');
    // No remote yet: the check does not run, and the first run stays green (the statement is not shown).
    expect(save.expect.activityRecorded).toBe(false);
    expect(statementDef('records-every-action').shownBy).toMatchObject({ points: ['sent', 'confirmed'], remote: true });
    expect(write).toContain('\n# expectation: [records-every-action, no-write-after-loss, writes-carry-key-and-session]\n');
    // The hint's lines, put in place, load, and then the check runs.
    const uncommented = write
      .replace('\npoints: [in-flight, after-response]\n', '\n')
      .replace('\nexpectation: [records-every-action]\n', '\n')
      .replace(/\n# (points|remote|expectation): /g, '\n$1: ');
    expect(parseScenario(uncommented, '/p/scenarios/save.yaml').expect.activityRecorded).toBe(true);
  });
});
