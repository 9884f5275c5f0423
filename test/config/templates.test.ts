import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseScenario, renderScenario, renderTemplates, TEMPLATE_NAMES, type TemplateContext } from '../../harness/config/index.js';

const FULL_CTX: TemplateContext = {
  remoteUrl: 'http://127.0.0.1:4000',
  remoteApiKey: 'key-1',
  sessionToken: 'tok-1',
  runId: 'run-7',
  tmp: '/tmp/drill-7',
  scenarioDir: '/work/scenarios',
};

function thrown(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return e as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('renderTemplates', () => {
  it('renders every known name, deeply, and leaves other values alone', () => {
    const input = {
      url: '{{remote.url}}/v1?key={{remote.apiKey}}',
      list: ['{{ session.token }}', 42, true, null, { id: 'drill-{{run.id}}', nested: [['{{tmp}}/x']] }],
      dir: '{{scenario.dir}}',
      plain: 'no templates, not even { single } braces',
    };
    const before = structuredClone(input);
    const out = renderTemplates(input, FULL_CTX);
    expect(out).toEqual({
      url: 'http://127.0.0.1:4000/v1?key=key-1',
      list: ['tok-1', 42, true, null, { id: 'drill-run-7', nested: [['/tmp/drill-7/x']] }],
      dir: '/work/scenarios',
      plain: 'no templates, not even { single } braces',
    });
    expect(input).toEqual(before); // the input is not mutated
    expect(out.list[4]).not.toBe(input.list[4]);
  });

  it('renders a bare string', () => {
    expect(renderTemplates('{{run.id}}-{{run.id}}', FULL_CTX)).toBe('run-7-run-7');
  });

  it('throws a ConfigError naming the field and the template when a value is not available', () => {
    const ctx: TemplateContext = { runId: 'r', tmp: '/t', scenarioDir: '/s' }; // no remote yet
    const err = thrown(() => renderTemplates({ env: { API: ['ok', '{{remote.url}}'] } }, ctx, 'subject'));
    expect(err.field).toBe('subject.env.API[1]');
    expect(err.message).toBe('subject.env.API[1]: template {{remote.url}} has no value: this drill has no drill remote');
    // The same value renders once the remote exists.
    expect(renderTemplates({ env: { API: ['ok', '{{remote.url}}'] } }, { ...ctx, remoteUrl: 'http://r' })).toEqual({
      env: { API: ['ok', 'http://r'] },
    });
  });

  it('renders an empty-string value (available, just empty) rather than throwing', () => {
    expect(renderTemplates('k={{remote.apiKey}}', { ...FULL_CTX, remoteApiKey: '' })).toBe('k=');
  });

  it('throws for an unknown name at render time too', () => {
    const err = thrown(() => renderTemplates({ a: '{{remote.uri}}' }, FULL_CTX));
    expect(err.field).toBe('a');
    expect(err.message).toContain('unknown template {{remote.uri}}');
    expect(err.message).toContain('did you mean {{remote.url}}?');
  });

  it('knows exactly the ten documented names (besides env.NAME and files.NAME)', () => {
    expect([...TEMPLATE_NAMES]).toEqual([
      'remote.url',
      'remote.apiKey',
      'session.token',
      'run.id',
      'tmp',
      'scenario.dir',
      'remote.httpsUrl',
      'remote.caFile',
      'remote.caBase64',
      'activity.file',
    ]);
  });
});

describe('renderScenario', () => {
  const file = path.resolve('/work/scen/s.yaml');
  const text = `id: s
subject:
  command: node
  args: ["--url={{remote.url}}"]
  env: { TOKEN: "{{session.token}}" }
  cwd: "{{tmp}}/work"
setup:
  - call: prep
    args: { run: "{{run.id}}" }
target:
  call: slow
  args: { out: ["{{tmp}}"] }
`;

  it('renders the templated fields and makes a templated cwd absolute', () => {
    const s = parseScenario(text, file);
    const r = renderScenario(s, FULL_CTX);
    expect(r.subject).toEqual({ ...s.subject, args: ['--url=http://127.0.0.1:4000'], env: { TOKEN: 'tok-1' }, cwd: '/tmp/drill-7/work' });
    expect(r.setup).toEqual([{ call: 'prep', args: { run: 'run-7' } }]);
    expect(r.target).toEqual({ call: 'slow', args: { out: ['/tmp/drill-7'] } });
    expect(s.subject.cwd).toBe('{{tmp}}/work'); // the loaded scenario is unchanged
  });

  it('names the file and the scenario field when a value is missing', () => {
    const s = parseScenario(text, file);
    const err = thrown(() => renderScenario(s, { ...FULL_CTX, sessionToken: undefined }));
    expect(err.file).toBe(file);
    expect(err.field).toBe('subject.env.TOKEN');
    expect(err.message).toContain('/work/scen/s.yaml: subject.env.TOKEN: template {{session.token}} has no value');
    const err2 = thrown(() => renderScenario(s, { ...FULL_CTX, remoteUrl: undefined }));
    expect(err2.field).toBe('subject.args[0]');
  });
});
