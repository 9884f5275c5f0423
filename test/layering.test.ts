/**
 * Layering you can see (docs/design.md, "Data flow"; after Playwright's DEPS.list): checks import only evidence
 * types, reporters only result types, and the executor never prints.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../harness/util/paths.js';

const root = packageRoot();

function sources(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) return sources(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

function imports(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  return [...text.matchAll(/^\s*(?:import|export)[^'"]*?from\s+'([^']+)'/gm)].map((m) => m[1]);
}

function resolved(file: string, spec: string): string {
  return spec.startsWith('.') ? relative(root, join(root, file, '..', spec)) : spec;
}

describe('layering', () => {
  it('checks import only evidence types, config types and each other', () => {
    const bad = sources('harness/checks').flatMap((file) =>
      imports(file)
        .map((spec) => resolved(file, spec))
        .filter((target) => !/^harness\/(checks|evidence)\//.test(target) && target !== 'harness/config/index.js')
        .map((target) => `${file} -> ${target}`),
    );
    expect(bad).toEqual([]);
  });

  it('checks and the evidence queries start no process and read no file', () => {
    const files = [...sources('harness/checks'), 'harness/evidence/queries.ts', 'harness/evidence/types.ts'];
    const bad = files.flatMap((file) =>
      imports(file)
        .filter((spec) => spec.startsWith('node:'))
        .map((spec) => `${file} -> ${spec}`),
    );
    expect(bad).toEqual([]);
  });

  it('reporters import only result types and each other', () => {
    const bad = sources('reports').flatMap((file) =>
      imports(file)
        .map((spec) => resolved(file, spec))
        .filter((target) => target.startsWith('harness/') && target !== 'harness/results/types.js')
        .map((target) => `${file} -> ${target}`),
    );
    expect(bad).toEqual([]);
  });

  it('one /proc library: the remote reads process stat and environment through harness/observe, and the marker is declared once', () => {
    const readers = sources('harness/remote').filter((file) => /\/(stat|environ|cmdline)[`']/.test(readFileSync(join(root, file), 'utf8')));
    expect(readers).toEqual([]);
    const markers = sources('harness').filter((file) => /=\s*'CRASH_DRILL_RUN'/.test(readFileSync(join(root, file), 'utf8')));
    expect(markers).toEqual(['harness/observe/membership.ts']);
  });

  it('the executor and the observer never print', () => {
    const files = [...sources('harness/drill'), ...sources('harness/observe'), ...sources('harness/run')];
    const bad = files.filter((file) => /console\.|process\.stdout|process\.stderr/.test(readFileSync(join(root, file), 'utf8')));
    expect(bad).toEqual([]);
  });
});
