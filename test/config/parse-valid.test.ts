import path from 'node:path';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defineScenario, DEFAULT_KILL_POINTS, KILL_MODES, KILL_POINTS, loadScenarios, parseScenario } from '../../harness/config/index.js';
import { makeTempDir, MINIMAL, type TempDir } from './temp-files.js';
import { tempDir } from '../support/temp-dir.js';

let tmp: TempDir;
beforeEach(async () => {
  tmp = await makeTempDir();
});
afterEach(async () => {
  await tmp.remove();
});

const FULL = `id: well-behaved-basic
description: a full scenario
subject:
  command: node
  args: [../dist/fake-servers/well-behaved.js, --verbose]
  env: { API_URL: "{{remote.url}}", TOKEN: "{{ session.token }}", MODE: "fast" }
  cwd: ..
  name: well-behaved
setup:
  - call: spawn-helper
    args: { keep: [1, "{{run.id}}"] }
  - call: ping
target:
  call: slow
  args: { ms: 200, out: "{{tmp}}/out.txt" }
points: [idle, sent, confirmed]
modes: [crash]
timeouts:
  handshake: 12000
  point: 3000
  in-flight-delay: 0
  close-wait: 1500
expect:
  exit-on-eof: { deadline: 1000 }
  no-survivors: false
  stdout-clean: false
  idempotent-effects: true
  jobs-settled: true
`;

describe('parseScenario: valid files', () => {
  it('fills every default in a minimal file', async () => {
    const file = await tmp.write('scenarios/minimal.yaml', MINIMAL);
    const [s] = await loadScenarios([file]);
    expect(s).toEqual({
      id: 'minimal',
      file,
      dir: path.join(tmp.root, 'scenarios'),
      subject: { name: 'node', command: 'node', args: [], env: {}, cwd: path.join(tmp.root, 'scenarios') },
      subjects: [{ name: 'node', command: 'node', args: [], env: {}, cwd: path.join(tmp.root, 'scenarios') }],
      setup: [],
      target: { call: 'slow', args: {} },
      points: ['idle', 'pre-dispatch', 'in-flight', 'child-spawned', 'after-response'],
      modes: ['crash', 'close', 'hang'],
      protocol: 'auto',
      cancel: { then: null, after: 0 },
      child: { command: null, pattern: null, aliveFor: 200 },
      timeouts: { handshake: 30000, point: 5000, inFlightDelay: 0, closeWait: null, discover: 2000 },
      record: { stdoutLines: 200, stderrBytes: 65536, lineBytes: 8192, unterminatedBytes: 16777216, activityEntries: 1000, activityBytes: 16777216 },
      remote: {
        handlers: null,
        writes: [],
        jobDuration: null,
        trigger: null,
        afterGate: 'proceed',
        fault: null,
        revokeAfter: 0,
        rotateApiKey: false,
        intercept: [],
        trust: true,
        declared: false,
      },
      retry: false,
      network: 'host',
      expect: {
        exitOnEof: { deadline: 2000 },
        noSurvivors: { grace: 2000 },
        stdoutClean: true,
        extra: {},
        idempotentEffects: false,
        deniedAfterRevocation: false,
        quietAfterLoss: false,
        jobsSettled: null,
        silentAfterCancel: { outlastsCancel: false },
        stopsAfterCancel: { deadline: 2000 },
        aliveAfterCancel: { deadline: 2000 },
        activityRecorded: false,
      },
    });
    expect('description' in s).toBe(false);
  });

  it('keeps every value of a full file and normalises its shape', async () => {
    const file = await tmp.write('scenarios/full.yml', FULL);
    const [s] = await loadScenarios([path.join(tmp.root, 'scenarios')]);
    expect(s.file).toBe(file);
    expect(s.description).toBe('a full scenario');
    expect(s.subject).toEqual({
      name: 'well-behaved',
      command: 'node',
      args: ['../dist/fake-servers/well-behaved.js', '--verbose'],
      env: { API_URL: '{{remote.url}}', TOKEN: '{{ session.token }}', MODE: 'fast' },
      cwd: tmp.root, // `..` from the file's folder
    });
    expect(s.setup).toEqual([
      { call: 'spawn-helper', args: { keep: [1, '{{run.id}}'] } },
      { call: 'ping', args: {} },
    ]);
    expect(s.target).toEqual({ call: 'slow', args: { ms: 200, out: '{{tmp}}/out.txt' } });
    expect(s.points).toEqual(['idle', 'sent', 'confirmed']);
    expect(s.modes).toEqual(['crash']);
    expect(s.timeouts).toEqual({ handshake: 12000, point: 3000, inFlightDelay: 0, closeWait: 1500, discover: 2000 });
    expect(s.expect).toEqual({
      exitOnEof: { deadline: 1000 },
      noSurvivors: null,
      stdoutClean: false,
      extra: { 'idempotent-effects': true, 'jobs-settled': true },
      idempotentEffects: true,
      deniedAfterRevocation: false,
      quietAfterLoss: false,
      // no-survivors is off, so jobs-settled's grace falls back to the default grace.
      jobsSettled: { grace: 2000 },
      silentAfterCancel: { outlastsCancel: false },
      stopsAfterCancel: { deadline: 2000 },
      aliveAfterCancel: { deadline: 2000 },
      activityRecorded: false,
    });
  });

  it('accepts every kill point and mode, and toggles checks with true/false', () => {
    const text = `id: all
subject: { command: python3, args: [-m, my_server] }
target: { call: t }
points: [${KILL_POINTS.join(', ')}]
modes: [${KILL_MODES.join(', ')}]
expect: { exit-on-eof: true, no-survivors: { }, stdout-clean: true, quiet-after-loss: false, denied-after-revocation: true, jobs-settled: { grace: 700 } }
`;
    const s = parseScenario(text, path.join(tmp.root, 'all.yaml'));
    expect(s.points).toEqual([...KILL_POINTS]);
    expect(s.modes).toEqual([...KILL_MODES]);
    expect(s.expect.exitOnEof).toEqual({ deadline: 2000 });
    expect(s.expect.noSurvivors).toEqual({ grace: 2000 });
    expect(s.expect.extra).toEqual({ 'quiet-after-loss': false, 'denied-after-revocation': true, 'jobs-settled': { grace: 700 } });
    expect(s.expect).toMatchObject({ quietAfterLoss: false, deniedAfterRevocation: true, idempotentEffects: false, jobsSettled: { grace: 700 } });
    expect(s.subject.name).toBe('my_server'); // first argument that is not an option
  });

  it('names the subject as its user knows it: the package a launcher runs, the script, else the program', () => {
    const dir = tmp.root;
    const name = (subject: string) => parseScenario(`id: n\nsubject: ${subject}\ntarget: { call: t }\n`, path.join(dir, 'n.yaml')).subject.name;
    expect(name('{ command: npx, args: [-y, "@modelcontextprotocol/server-memory"] }')).toBe('@modelcontextprotocol/server-memory');
    expect(name('{ command: mcp-server-git, args: [--repository, gitrepo] }')).toBe('mcp-server-git');
    expect(name('{ command: node, args: [dist/well-behaved.js] }')).toBe('well-behaved.js');
    expect(name('{ command: /usr/local/bin/my-server }')).toBe('my-server');
    expect(name('{ command: /usr/local/bin/my-server, name: Mine }')).toBe('Mine');
  });

  it('resolves cwd against the file folder (not the process cwd), keeping a leading template for rendering', () => {
    const cwd = (value: string) =>
      parseScenario(`id: c\nsubject: { command: node, cwd: "${value}" }\ntarget: { call: t }\n`, path.join(tmp.root, 'x', 'c.yaml')).subject.cwd;
    expect(cwd('sub/dir')).toBe(path.join(tmp.root, 'x', 'sub', 'dir'));
    expect(cwd('/abs/path')).toBe('/abs/path');
    expect(cwd('{{tmp}}/work')).toBe('{{tmp}}/work');
    expect(cwd('work-{{run.id}}')).toBe(path.join(tmp.root, 'x', 'work-{{run.id}}'));
  });

  it('has the default point list documented in docs/design.md', () => {
    expect([...DEFAULT_KILL_POINTS]).toEqual(['idle', 'pre-dispatch', 'in-flight', 'child-spawned', 'after-response']);
  });

  it('defineScenario returns its argument unchanged, and the same shape loads', () => {
    const input = defineScenario({
      id: 'typed',
      subject: { command: 'node', env: { A: '{{run.id}}' } },
      target: { call: 'slow', args: { ms: 1 } },
      timeouts: { 'close-wait': 100 },
      expect: { 'exit-on-eof': false },
    });
    expect(defineScenario(input)).toBe(input);
    // Type-level: the file shape is enforced by the compiler (checked with tsc, see the report).
    // @ts-expect-error `sideways` is not a kill point
    defineScenario({ id: 'x', subject: { command: 'node' }, target: { call: 't' }, points: ['sideways'] });
    // @ts-expect-error env values are strings
    defineScenario({ id: 'x', subject: { command: 'node', env: { PORT: 8080 } }, target: { call: 't' } });
    const s = parseScenario(JSON.stringify(input), path.join(tmp.root, 'typed.yaml')); // JSON is YAML
    expect(s.timeouts.closeWait).toBe(100);
    expect(s.expect.exitOnEof).toBeNull();
  });

  it('reads the child the child-spawned point waits for', () => {
    const s = parseScenario(
      'id: c\nsubject: { command: node }\ntarget: { call: t }\nchild: { command: chrome, alive-for: 500 }\n',
      path.join(tmp.root, 'child.yaml'),
    );
    expect(s.child).toEqual({ command: 'chrome', pattern: null, aliveFor: 500 });
  });
});

describe('the remote section', () => {
  it('normalises a full remote section and turns the four remote checks on by default', () => {
    const dir = tempDir('crash-drill-remote-');
    const text = `id: deploys
subject: { command: node, args: [server.js] }
target: { call: deploy, args: { service: web } }
points: [sent, confirmed]
remote:
  handlers: ./deploy-api.js
  writes: [{ method: POST, path: /deploys }]
  job-duration: 800
  trigger: { method: POST, path: /deploys }
  after-gate: drop
  fault: { kind: drop-after-commit, times: 1 }
  revoke-after: 50
  rotate-api-key: true
retry: false
expect: { jobs-settled: false, no-survivors: { grace: 900 } }
`;
    const s = parseScenario(text, path.join(dir, 'd.yaml'));
    expect(s.remote).toEqual({
      handlers: path.join(dir, 'deploy-api.js'),
      writes: [{ method: 'POST', path: '/deploys' }],
      jobDuration: 800,
      trigger: { method: 'POST', path: '/deploys' },
      afterGate: 'drop',
      fault: { kind: 'drop-after-commit', times: 1 },
      revokeAfter: 50,
      rotateApiKey: true,
      intercept: [],
      trust: true,
      declared: true,
    });
    expect(s.retry).toBe(false);
    expect(s.expect).toMatchObject({ idempotentEffects: true, deniedAfterRevocation: true, quietAfterLoss: true, jobsSettled: null });
    rmSync(dir, { recursive: true, force: true });
  });

  it('names the field of a bad remote value', () => {
    const file = path.join(tmpdir(), 'bad-remote.yaml');
    expect(() => parseScenario('id: r\nsubject: { command: node }\ntarget: { call: t }\nremote: { after-gate: explode }\n', file)).toThrow(
      /bad-remote\.yaml: remote\.after-gate: expected one of proceed, fail, drop, got "explode"/,
    );
    expect(() => parseScenario('id: r\nsubject: { command: node }\ntarget: { call: t }\nremote: { fault: { kind: status, status: 404 } }\n', file)).toThrow(
      /remote\.fault\.status/,
    );
    expect(() => parseScenario('id: r\nsubject: { command: node }\ntarget: { call: t }\nremote: { revoke-afterr: 5 }\n', file)).toThrow(
      /remote\.revoke-afterr: .*did you mean "revoke-after"/,
    );
  });
});
