/**
 * subject.activity and expect.activity-recorded as a scenario file writes them: normalised, on
 * by default exactly where the scenario asks for the server's record, and rendered per drill.
 * The bad inputs are in parse-errors.test.ts.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseScenario, renderScenario } from '../../harness/config/index.js';
import { DEFAULT_ACTIVITY } from '../../harness/config/activity-schema.js';

const file = path.resolve('/work/scen/s.yaml');
const parse = (text: string) => parseScenario(`id: s\ntarget: { call: write }\n${text}`, file);

describe('subject.activity', () => {
  it('is absent when not written: the drill reads its own file in our format', () => {
    expect(parse('subject: { command: node }\n').subject.activity).toBeUndefined();
    expect(DEFAULT_ACTIVITY).toEqual({
      source: { kind: 'file', path: '{{activity.file}}' },
      fields: { t: 't', key: 'key', phase: 'phase', session: 'session', operation: 'operation', target: 'target', remoteId: 'remoteId' },
      phases: { started: 'started', result: 'result', unresolved: 'unresolved' },
    });
  });

  it("fills in a server's own file, field names and phase values", () => {
    const s = parse(
      'subject:\n  command: node\n  activity:\n    file: logs/audit.jsonl\n    fields: { key: ctx.requestId, phase: event, remote-id: deployId }\n    phases: { started: begin, result: done }\n',
    );
    expect(s.subject.activity).toEqual({
      source: { kind: 'file', path: 'logs/audit.jsonl' },
      fields: { ...DEFAULT_ACTIVITY.fields, key: 'ctx.requestId', phase: 'event', remoteId: 'deployId' },
      phases: { started: 'begin', result: 'done', unresolved: 'unresolved' },
    });
  });

  it('reads stderr lines that match a pattern instead', () => {
    const s = parse("subject:\n  command: node\n  activity: { stderr: '^audit: (?<json>\\{.*\\})$' }\n");
    expect(s.subject.activity?.source).toEqual({ kind: 'stderr', pattern: '^audit: (?<json>\\{.*\\})$' });
  });

  it('renders the file like env, absolute against the subject folder once rendered', () => {
    const s = parse('subject:\n  command: node\n  cwd: "{{tmp}}/work"\n  activity: { file: "logs/{{run.id}}.jsonl" }\n');
    const ctx = { runId: 'cd-1', tmp: '/tmp/d', scenarioDir: '/work/scen', activityFile: '/tmp/d/activity.jsonl' };
    expect(renderScenario(s, ctx).subject.activity?.source).toEqual({ kind: 'file', path: '/tmp/d/work/logs/cd-1.jsonl' });
    const own = parse('subject:\n  command: node\n  activity: { file: "{{activity.file}}", fields: { key: id } }\n');
    expect(renderScenario(own, ctx).subject.activity?.source).toEqual({ kind: 'file', path: '/tmp/d/activity.jsonl' });
  });

  it('{{activity.file}} renders in args, env and subject.files', () => {
    const s = parse(
      'subject:\n  command: node\n  args: ["--audit={{activity.file}}"]\n  env: { AUDIT: "{{activity.file}}" }\n  files: { cfg: "audit: {{activity.file}}" }\n',
    );
    const r = renderScenario(s, {
      runId: 'cd-1',
      tmp: '/tmp/d',
      scenarioDir: '/work/scen',
      activityFile: '/tmp/d/activity.jsonl',
      files: { cfg: '/tmp/d/cfg' },
    });
    expect([r.subject.args, r.subject.env, r.subject.files]).toEqual([
      ['--audit=/tmp/d/activity.jsonl'],
      { AUDIT: '/tmp/d/activity.jsonl' },
      { cfg: 'audit: /tmp/d/activity.jsonl' },
    ]);
  });
});

describe('expect.activity-recorded', () => {
  const remote = 'remote: {}\n';
  it('is on with a remote: section when the scenario states records-every-action (for every subject or one)', () => {
    expect(parse(`subject: { command: node }\n${remote}expectation: [records-every-action]\n`).expect.activityRecorded).toBe(true);
    expect(
      parse(`subjects:\n  - { command: node, name: a, expectation: [records-every-action] }\n  - { command: node, name: b }\n${remote}`).expect
        .activityRecorded,
    ).toBe(true);
  });

  it('is on with a remote: section when a subject names where its record is', () => {
    expect(parse(`subject: { command: node, activity: { stderr: "^A (.*)$" } }\n${remote}`).expect.activityRecorded).toBe(true);
  });

  it('is off otherwise: no remote, or nothing asks for the record; the file turns it either way', () => {
    expect(parse('subject: { command: node }\nexpectation: [records-every-action]\n').expect.activityRecorded).toBe(false);
    expect(parse(`subject: { command: node }\n${remote}`).expect.activityRecorded).toBe(false);
    expect(
      parse(`subject: { command: node }\n${remote}expectation: [records-every-action]\nexpect: { activity-recorded: false }\n`).expect.activityRecorded,
    ).toBe(false);
    expect(parse('subject: { command: node }\nexpect: { activity-recorded: true }\n').expect.activityRecorded).toBe(true);
  });
});
