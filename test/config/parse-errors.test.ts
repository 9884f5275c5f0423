import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadScenarios, parseScenario } from '../../harness/config/index.js';
import { caught, makeTempDir, MINIMAL, type TempDir } from './temp-files.js';

let tmp: TempDir;
beforeEach(async () => {
  tmp = await makeTempDir();
});
afterEach(async () => {
  await tmp.remove();
});

/** Writes `text` to a temp file, loads it, and returns the ConfigError with the file it named. */
async function loadError(text: string): Promise<{ err: ConfigError; file: string }> {
  const file = await tmp.write('scenarios/bad.yaml', text);
  const err = await caught(() => loadScenarios([file]));
  expect(err).toBeInstanceOf(ConfigError);
  const e = err as ConfigError;
  expect(e.code).toBe('CRASH_DRILL_CONFIG');
  expect(e.file).toBe(file);
  return { err: e, file };
}

// Each case: the file text, the field path the error must name, and text the message must hold.
const CASES: { name: string; text: string; field: string; says: string }[] = [
  {
    name: 'child named two ways',
    text: `${MINIMAL}child: { command: sleep, pattern: sleep }\n`,
    field: 'child.pattern',
    says: 'expected either command or pattern, not both',
  },
  {
    name: 'child pattern that is no regular expression',
    text: `${MINIMAL}child: { pattern: "chrom(e" }\n`,
    field: 'child.pattern',
    says: 'expected a regular expression (JavaScript syntax)',
  },
  {
    name: 'unknown kill point',
    text: `${MINIMAL}points: [idle, sideways]\n`,
    field: 'points[1]',
    says: 'expected one of idle, pre-dispatch, in-flight, sent, confirmed, child-spawned, after-response, got "sideways"',
  },
  {
    name: 'wrong type (string for a list)',
    text: `${MINIMAL}modes: crash\n`,
    field: 'modes',
    says: 'expected a list, got "crash"',
  },
  {
    name: 'number where env wants a string',
    text: MINIMAL.replace('  command: node\n', '  command: node\n  env: { API_PORT: 8080 }\n'),
    field: 'subject.env.API_PORT',
    says: 'expected a string, got the number 8080',
  },
  {
    name: 'missing subject.command',
    text: MINIMAL.replace('  command: node\n', '  args: [x]\n'),
    field: 'subject.command',
    says: 'missing; expected a string',
  },
  {
    name: 'empty subject.command',
    text: MINIMAL.replace('  command: node\n', '  command: ""\n'),
    field: 'subject.command',
    says: 'expected a non-empty string, got ""',
  },
  {
    name: 'missing setup call',
    text: `${MINIMAL}setup:\n  - args: {}\n`,
    field: 'setup[0].call',
    says: 'missing; expected a string',
  },
  {
    name: 'unknown field with a suggestion',
    text: MINIMAL.replace('  command: node\n', '  command: node\n  cmd: x\n'),
    field: 'subject.cmd',
    says: 'unknown field, did you mean "command"?',
  },
  {
    name: 'unknown camelCase field',
    text: `${MINIMAL}timeouts: { inFlightDelay: 10 }\n`,
    field: 'timeouts.inFlightDelay',
    says: 'did you mean "in-flight-delay"?',
  },
  {
    name: 'unknown field at the wrong level',
    text: `${MINIMAL}deadline: 10\n`,
    field: 'deadline',
    says: 'did you mean expect.exit-on-eof.deadline?',
  },
  {
    name: 'unknown field with no near match',
    text: `${MINIMAL}zzzzzz: 1\n`,
    field: 'zzzzzz',
    says: 'unknown field; known: id, description, subject, subjects, setup, target, points, modes, protocol, client-profiles, cancel, child, timeouts, record, remote, retry, network, expect',
  },
  {
    name: 'negative deadline',
    text: `${MINIMAL}expect:\n  exit-on-eof: { deadline: -5 }\n`,
    field: 'expect.exit-on-eof.deadline',
    says: 'expected a positive integer, got the number -5',
  },
  {
    name: 'a record bound of zero',
    text: `${MINIMAL}record: { stdout-lines: 0 }\n`,
    field: 'record.stdout-lines',
    says: 'expected a positive integer, got the number 0',
  },
  {
    name: 'a misspelt record bound',
    text: `${MINIMAL}record: { stderr-byte: 10 }\n`,
    field: 'record.stderr-byte',
    says: 'did you mean "stderr-bytes"?',
  },
  {
    name: 'fractional timeout',
    text: `${MINIMAL}timeouts: { point: 1.5 }\n`,
    field: 'timeouts.point',
    says: 'expected an integer, got the number 1.5',
  },
  {
    name: 'wrong type inside a check mapping',
    text: `${MINIMAL}expect:\n  exit-on-eof: { deadline: soon }\n`,
    field: 'expect.exit-on-eof.deadline',
    says: 'expected a number, got "soon"',
  },
  {
    name: 'unknown field inside a check mapping',
    text: `${MINIMAL}expect:\n  no-survivors: { grac: 10 }\n`,
    field: 'expect.no-survivors.grac',
    says: 'unknown field, did you mean "grace"?',
  },
  {
    name: 'bad env name',
    text: MINIMAL.replace('  command: node\n', '  command: node\n  env: { "A=B": x }\n'),
    field: 'subject.env["A=B"]',
    says: 'expected an environment variable name without "=", got key "A=B"',
  },
  {
    name: 'empty value where a list is expected',
    text: `${MINIMAL}setup:\n`,
    field: 'setup',
    says: 'expected a list, got an empty value (null)',
  },
  {
    name: 'check toggle of the wrong type',
    text: `${MINIMAL}expect: { no-survivors: "yes" }\n`,
    field: 'expect.no-survivors',
    says: 'expected true, false or a mapping { grace: ms }, got "yes"',
  },
  {
    name: 'empty point list',
    text: `${MINIMAL}points: []\n`,
    field: 'points',
    says: 'expected a non-empty list, got an empty list',
  },
  {
    name: 'duplicate kill mode',
    text: `${MINIMAL}modes: [crash, hang, crash]\n`,
    field: 'modes[2]',
    says: 'duplicate kill mode "crash"',
  },
  {
    name: 'bad id',
    text: MINIMAL.replace('id: minimal', 'id: Not An Id'),
    field: 'id',
    says: 'expected an id matching [a-z0-9][a-z0-9._-]*',
  },
  {
    name: 'tool args that are not a mapping',
    text: MINIMAL.replace('  call: slow\n', '  call: slow\n  args: [1, 2]\n'),
    field: 'target.args',
    says: 'expected a mapping, got a list',
  },
  {
    name: 'unknown template, deep in target args',
    text: MINIMAL.replace('  call: slow\n', '  call: slow\n  args: { a: [{ b: "x {{remote.uri}}" }] }\n'),
    field: 'target.args.a[0].b',
    says: 'unknown template {{remote.uri}}; known: {{remote.url}}',
  },
  {
    name: 'unknown template in env',
    text: MINIMAL.replace('  command: node\n', '  command: node\n  env: { API_URL: "{{remote.uri}}" }\n'),
    field: 'subject.env.API_URL',
    says: 'unknown template {{remote.uri}}; known: {{remote.url}}, {{remote.apiKey}}, {{session.token}}, {{run.id}}, {{tmp}}, {{scenario.dir}}',
  },
  {
    name: 'template where it would not be rendered',
    text: MINIMAL.replace('  command: node\n', '  command: "{{tmp}}/server"\n'),
    field: 'subject.command',
    says: 'templates are not rendered here',
  },
  {
    name: 'a subject file named with a folder',
    text: `${MINIMAL.replace('  command: node\n', '  command: node\n  files: { "etc/kubeconfig": x }\n')}`,
    field: 'subject.files["etc/kubeconfig"]',
    says: 'expected a file name of letters, digits, ".", "_", "-" (no folder)',
  },
  {
    name: 'an unknown template in a subject file',
    text: `${MINIMAL.replace('  command: node\n', '  command: node\n  files: { kubeconfig: "server: {{remote.httpUrl}}" }\n')}`,
    field: 'subject.files.kubeconfig',
    says: 'unknown template {{remote.httpUrl}}',
  },
  {
    name: 'an activity record read from a file and from stderr at once',
    text: MINIMAL.replace('  command: node\n', '  command: node\n  activity: { file: a.log, stderr: "^A (.*)$" }\n'),
    field: 'subject.activity.stderr',
    says: 'expected either file or stderr, not both',
  },
  {
    name: 'an activity stderr pattern that is not a regular expression',
    text: MINIMAL.replace('  command: node\n', '  command: node\n  activity: { stderr: "^audit (" }\n'),
    field: 'subject.activity.stderr',
    says: 'expected a regular expression (JavaScript syntax): Invalid regular expression',
  },
  {
    name: 'an activity file that is one of subject.files',
    text: MINIMAL.replace('  command: node\n', '  command: node\n  files: { cfg: x }\n  activity: { file: "{{files.cfg}}" }\n'),
    field: 'subject.activity.file',
    says: 'expected a file the server writes, not one of subject.files',
  },
  {
    name: 'two activity phases with one value',
    text: MINIMAL.replace('  command: node\n', '  command: node\n  activity: { phases: { result: done, unresolved: done } }\n'),
    field: 'subject.activity.phases.unresolved',
    says: 'expected a value of its own, got "done", the value of result too',
  },
  {
    name: 'an activity field name with a space',
    text: MINIMAL.replace('  command: node\n', '  command: node\n  activity: { fields: { key: "request id" } }\n'),
    field: 'subject.activity.fields.key',
    says: 'expected a field name (a dotted name for a nested field, no spaces)',
  },
  {
    name: 'a misspelt activity field',
    text: MINIMAL.replace('  command: node\n', '  command: node\n  activity: { fields: { remoteId: x } }\n'),
    field: 'subject.activity.fields.remoteId',
    says: 'did you mean "remote-id"?',
  },
  {
    name: 'an unknown template in the activity file',
    text: MINIMAL.replace('  command: node\n', '  command: node\n  activity: { file: "{{activity.path}}" }\n'),
    field: 'subject.activity.file',
    says: 'unknown template {{activity.path}}',
  },
  {
    name: 'expect.activity-recorded that is not a boolean',
    text: `${MINIMAL}expect: { activity-recorded: { deadline: 5 } }\n`,
    field: 'expect.activity-recorded',
    says: 'expected true or false',
  },
  {
    name: 'remote.trust that is not a boolean',
    text: `${MINIMAL}remote: { trust: jvm }\n`,
    field: 'remote.trust',
    says: 'expected true or false',
  },
];

describe('parseScenario: each bad input names the file and the field', () => {
  for (const c of CASES) {
    it(c.name, async () => {
      const { err, file } = await loadError(c.text);
      expect(err.field).toBe(c.field);
      // One line `file: field: message`; the temp folder is outside the cwd, so the path is absolute.
      expect(err.message.split('\n')[0]).toBe(`${file}: ${c.field}: ${err.problems[0].message}`);
      expect(err.problems[0].message).toContain(c.says);
    });
  }

  it('reads like the Playwright example for a file under the working folder', () => {
    const e = caughtSync(() => parseScenario(`${MINIMAL}points: [idle, sideways]\n`, 'scenarios/bad.yaml'));
    expect(e.message).toBe(
      'scenarios/bad.yaml: points[1]: expected one of idle, pre-dispatch, in-flight, sent, confirmed, child-spawned, after-response, got "sideways"',
    );
    expect(e.file).toBe(path.resolve('scenarios/bad.yaml'));
  });

  it('lists every problem of a file, one line each, in the order found', async () => {
    const { err, file } = await loadError(`id: x\nsubject: { command: 1 }\ntarget: { call: t }\npoints: [nope]\n`);
    expect(err.problems.map((p) => p.field)).toEqual(['subject.command', 'points[0]']);
    expect(err.message.split('\n')).toEqual([
      `${file}: subject.command: expected a string, got the number 1 (quote it to make it a string)`,
      `${file}: points[0]: expected one of idle, pre-dispatch, in-flight, sent, confirmed, child-spawned, after-response, got "nope"`,
    ]);
  });

  it('gives a YAML syntax error with line and column', async () => {
    const { err, file } = await loadError('id: x\nsubject: {\n  command: [\n');
    expect(err.problems[0].line).toBeGreaterThanOrEqual(3);
    expect(err.message).toMatch(new RegExp(`^${escapeRegExp(file)}:\\d+:\\d+: YAML syntax error: `));
  });

  it('pins the position of a YAML error exactly', async () => {
    // `@` is reserved in YAML 1.2 and cannot start a plain value: line 2, column 10.
    const { err, file } = await loadError('id: x\nsubject: @bad\n');
    expect(err.message).toBe(`${file}:2:10: YAML syntax error: Plain value cannot start with reserved character @`);
    expect([err.problems[0].line, err.problems[0].col]).toEqual([2, 10]);
  });

  it('rejects duplicate keys as a YAML error', async () => {
    const { err, file } = await loadError('id: x\nid: y\n');
    expect(err.message).toBe(`${file}:2:1: YAML syntax error: Map keys must be unique`);
  });

  it('rejects an empty file', async () => {
    for (const text of ['', '   \n', '# only a comment\n']) {
      const { err, file } = await loadError(text);
      expect(err.message).toBe(`${file}: the file is empty; expected a mapping with at least id, subject and target`);
    }
  });

  it('rejects a top level that is not a mapping', async () => {
    const list = await loadError('- id: x\n');
    expect(list.err.message).toBe(`${list.file}: expected a mapping (id, subject, target, ...) at the top level, got a list`);
    const scalar = await loadError('just text\n');
    expect(scalar.err.message).toContain('at the top level, got string "just text"');
  });

  it('rejects two documents in one file', async () => {
    const { err } = await loadError(`${MINIMAL}---\n${MINIMAL}`);
    expect(err.message).toContain('holds one document');
  });
});

function caughtSync(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return e as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
