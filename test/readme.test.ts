/** The README stays a front door: its first lines, its vitest example, its length, and a link to every docs page. */
import { readdirSync, readFileSync } from 'node:fs';
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

  it('is at most 400 lines, none much past 200 characters', () => {
    const lines = readme.trimEnd().split('\n');
    expect(lines.length).toBeLessThanOrEqual(400);
    expect(lines.filter((line) => line.length > 200)).toEqual([]);
  });

  it('links every page of docs/', () => {
    const pages = readdirSync(join(packageRoot(), 'docs')).filter((name) => name.endsWith('.md'));
    expect(pages.length).toBeGreaterThan(5);
    expect(pages.filter((name) => !readme.includes(`](docs/${name})`))).toEqual([]);
  });
});
