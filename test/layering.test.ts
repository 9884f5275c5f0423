/**
 * Layering you can see (docs/design.md, "Data flow"; after Playwright's DEPS.list): checks import only evidence
 * types, reporters only result types, and the executor never prints.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
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

/** A path under /proc, as a string literal or a template's text before its first `${`. */
const PROC_PATH = /^\/proc(\/|$)/;

/**
 * The string literals and template openings of a TypeScript source that name a path under /proc
 * ('/proc', '/proc/mounts', `/proc/${pid}/fd`). Parsed, not grepped: comments, which may
 * well say "/proc/PID/stat", are no part of the syntax tree, and a message that mentions a
 * /proc path in its middle opens nothing.
 */
function procPathLiterals(text: string): string[] {
  const source = ts.createSourceFile('source.ts', text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    const literal = ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) ? node.text : ts.isTemplateExpression(node) ? node.head.text : null;
    if (literal !== null && PROC_PATH.test(literal)) found.push(literal);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The one /proc reader (harness/observe/proc.ts says what each part reads). */
function isProcReader(file: string): boolean {
  return file === 'harness/observe/proc.ts' || file.startsWith('harness/observe/proc/');
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

  it('the /proc detector finds literals and templates that open /proc, and not comments or messages', () => {
    const opens = [
      `const s = readFileSync(\`/proc/\${pid}/stat\`, 'utf8');`,
      "for (const name of readdirSync('/proc')) {}",
      'const mounts = readFileSync("/proc/mounts");',
      'const t = `/proc/net/tcp`;',
    ];
    expect(opens.map(procPathLiterals)).toEqual([['/proc/'], ['/proc'], ['/proc/mounts'], ['/proc/net/tcp']]);
    const mentions = [
      `// reads /proc/PID/stat, as readFileSync(\`/proc/\${pid}/stat\`) would`,
      `/** '/proc/1' and \`/proc/\${pid}/fd\` */ const x = 1;`,
      "throw new Error('no cgroup2 mount in /proc/mounts');",
      "import { readStat } from './proc.js';",
    ];
    expect(mentions.map(procPathLiterals)).toEqual([[], [], [], []]);
  });

  it('one /proc reader: no file of harness/ but harness/observe/proc.ts and harness/observe/proc/ opens a path under /proc', () => {
    const files = sources('harness');
    expect(files).toContain('harness/observe/proc.ts');
    expect(files.filter(isProcReader).filter((file) => procPathLiterals(readFileSync(join(root, file), 'utf8')).length > 0)).toContain(
      'harness/observe/proc.ts',
    );
    const bad = files
      .filter((file) => !isProcReader(file))
      .flatMap((file) => procPathLiterals(readFileSync(join(root, file), 'utf8')).map((literal) => `${file}: ${literal}`));
    expect(bad).toEqual([]);
  });

  it('the executor and the observer never print', () => {
    const files = [...sources('harness/drill'), ...sources('harness/observe'), ...sources('harness/run')];
    const bad = files.filter((file) => /console\.|process\.stdout|process\.stderr/.test(readFileSync(join(root, file), 'utf8')));
    expect(bad).toEqual([]);
  });
});
