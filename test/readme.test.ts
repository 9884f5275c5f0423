/** The README's first lines and its vitest example stay true. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../harness/util/paths.js';

const readme = readFileSync(join(packageRoot(), 'README.md'), 'utf8');

describe('README', () => {
  it('starts with the two set-up commands', () => {
    const head = readme.split('\n').slice(0, 6).join('\n');
    expect(head).toContain('npm ci && npm run drill');
    expect(head).toContain('npm ci && npm test');
  });

  it('shows the vitest example exactly as test/readme-example.test.ts runs it', () => {
    const example = readFileSync(join(packageRoot(), 'test/readme-example.test.ts'), 'utf8').split('\n').slice(1).join('\n').trim();
    expect(readme).toContain('```ts\n' + example + '\n```');
  });
});
