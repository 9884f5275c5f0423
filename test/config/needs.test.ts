/**
 * What a scenario file needs besides its schema (harness/config/parse.ts): a subject unless the
 * run's `--subject` stands in for it, and `target:` only where a point needs one (POINT_NEEDS).
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseScenario, type SubjectSpec } from '../../harness/config/index.js';
import { tempDir } from '../support/temp-dir.js';

let dir = '';

function parse(text: string, subjects?: SubjectSpec[]) {
  dir = tempDir('crash-drill-needs-');
  return parseScenario(text, path.join(dir, 's.yaml'), { subjects });
}

function problems(text: string, subjects?: SubjectSpec[]): string[] {
  try {
    parse(text, subjects);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems.map((p) => `${p.field}: ${p.message}`);
    throw error;
  }
  return [];
}

const given: SubjectSpec = { name: 'server.js', command: 'node', args: ['server.js'], env: {}, cwd: '/srv' };

describe('what a scenario file needs', () => {
  it('a file without target: drills idle, which needs none', () => {
    const s = parse('id: bare\nsubject: { command: node }\npoints: [idle]\n');
    expect(s.target).toBeNull();
    expect(s.points).toEqual(['idle']);
  });

  it('a point that needs the target, with none: the field and the points that need it', () => {
    expect(problems('id: x\nsubject: { command: node }\npoints: [idle, in-flight, after-response]\n')).toEqual([
      'target: expected a target call ({ call: <tool> }), which the points in-flight, after-response need; got nothing (points: [idle] alone needs none)',
    ]);
    expect(problems('id: x\nsubject: { command: node }\n')).toEqual([
      'target: expected a target call ({ call: <tool> }), which the default points pre-dispatch, in-flight, child-spawned, after-response need; got nothing (points: [idle] alone needs none)',
    ]);
  });

  it('is said beside the schema problems of the same file', () => {
    expect(problems('id: x\nsubject: { command: node }\nmodes: [explode]\n')).toEqual([
      expect.stringMatching(/^modes\[0\]: /),
      expect.stringMatching(/^target: expected a target call/),
    ]);
  });

  it('a file without subject: takes the --subject given, and without one is an error naming the field', () => {
    const s = parse('id: x\ntarget: { call: t }\npoints: [idle]\n', [given]);
    expect(s.subjects).toEqual([given]);
    expect(s.subject).toEqual(given);
    expect(problems('id: x\ntarget: { call: t }\npoints: [idle]\n')).toEqual(['subject: expected a subject (or a list of subjects), got nothing']);
  });

  it("a file's own subject stays its own when --subject is given (the run replaces it: harness/run/run-drills.ts)", () => {
    expect(parse('id: x\nsubject: { command: python3 }\ntarget: { call: t }\n', [given]).subject.command).toBe('python3');
  });
});
