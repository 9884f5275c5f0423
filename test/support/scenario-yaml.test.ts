/** The typed builder writes what the hand-written YAML said: parsed, the two are the same scenario. */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../harness/config/index.js';
import { packageRoot } from '../../harness/util/paths.js';
import { fakeSubject, scenarioYaml } from './scenarios.js';

describe('scenarioYaml', () => {
  it('gives the scenario the hand-written file gives, templates, kebab-case keys and odd strings included', () => {
    const byHand = [
      'id: same',
      'subject:',
      '  command: node',
      `  args: [${JSON.stringify(join(packageRoot(), 'dist/fake-servers/well-behaved.js'))}]`,
      '  name: well-behaved',
      '  env: { TOKEN: "{{session.token}}", NOTE: "a: b # c" }',
      'setup:',
      '  - call: subscribe',
      'target: { call: echo, args: { text: "yes" } }',
      'points: [idle, after-response]',
      'modes: [crash, close]',
      'timeouts: { close-wait: 400 }',
      'expect: { exit-on-eof: { deadline: 800 }, no-survivors: { grace: 400 } }',
    ].join('\n');
    const built = scenarioYaml({
      id: 'same',
      subject: fakeSubject('well-behaved', { TOKEN: '{{session.token}}', NOTE: 'a: b # c' }),
      setup: [{ call: 'subscribe' }],
      target: { call: 'echo', args: { text: 'yes' } },
      points: ['idle', 'after-response'],
      modes: ['crash', 'close'],
      timeouts: { 'close-wait': 400 },
      expect: { 'exit-on-eof': { deadline: 800 }, 'no-survivors': { grace: 400 } },
    });
    expect(parseScenario(built, '/x/same.yaml')).toEqual(parseScenario(byHand, '/x/same.yaml'));
    expect(parseScenario(built, '/x/same.yaml').subject.env).toEqual({ TOKEN: '{{session.token}}', NOTE: 'a: b # c' });
  });
});
