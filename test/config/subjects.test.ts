/** Several subjects in one scenario: the same drills against each, side by side. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../harness/config/index.js';
import { planDrills } from '../../harness/plan/plan.js';
import { tempDir } from '../support/temp-dir.js';

let dir = '';

/** Each parse gets a folder of its own, removed after the file (test/support/remove-temp-dirs.ts). */
function parse(text: string) {
  dir = tempDir('crash-drill-subjects-');
  return parseScenario(text, path.join(dir, 's.yaml'));
}

describe('subjects', () => {
  it('plans every point and mode for each subject, keyed by the subject name', () => {
    const s = parse(
      'id: cmp\nsubjects:\n  - { command: node, args: [a.js] }\n  - { command: python3, args: [b.py], name: py }\ntarget: { call: t }\npoints: [idle]\nmodes: [crash, hang]\n',
    );
    expect(s.subjects.map((x) => x.name)).toEqual(['a.js', 'py']);
    expect(s.subject.name).toBe('a.js');
    const drills = planDrills([s]);
    expect(drills.map((d) => [d.index, d.key, d.scenario.subject.name])).toEqual([
      [0, 'cmp/a.js/idle/crash', 'a.js'],
      [1, 'cmp/a.js/idle/hang', 'a.js'],
      [2, 'cmp/py/idle/crash', 'py'],
      [3, 'cmp/py/idle/hang', 'py'],
    ]);
    expect(drills[2].scenario.subject.cwd).toBe(dir);
  });

  it('keeps the plain key for a single subject', () => {
    const s = parse('id: one\nsubject: { command: node }\ntarget: { call: t }\npoints: [idle]\nmodes: [crash]\n');
    expect(s.subjects).toHaveLength(1);
    expect(planDrills([s]).map((d) => d.key)).toEqual(['one/idle/crash']);
  });

  it('refuses both or neither, and two subjects with one name', () => {
    expect(() => parse('id: x\ntarget: { call: t }\n')).toThrow(/s\.yaml: subject: expected a subject \(or a list of subjects\), got nothing/);
    expect(() => parse('id: x\nsubject: { command: a }\nsubjects: [{ command: b }]\ntarget: { call: t }\n')).toThrow(
      /subjects: expected either subject or subjects, not both/,
    );
    expect(() => parse('id: x\nsubjects: [{ command: node, args: [a.js] }, { command: node, args: [a.js] }]\ntarget: { call: t }\n')).toThrow(
      /subjects\[1\]\.name: expected a name no other subject has, got "a\.js" twice/,
    );
    expect(() => parse('id: x\nsubjects: [{ command: node, args: ["{{remote.uri}}"] }]\ntarget: { call: t }\n')).toThrow(
      /subjects\[0\]\.args\[0\]: unknown template \{\{remote\.uri\}\}/,
    );
  });
});
