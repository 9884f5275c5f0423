/**
 * Layering you can see (docs/design.md, "Layers" and "Data flow"; after Playwright's DEPS.list):
 * the table of layers holds, with no folder circle and no file circle; checks import only
 * evidence types, reporters only result types and constants, and the executor never prints.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../harness/util/paths.js';
import { circles, importsOf, sourceFiles } from './support/import-graph.js';
import { CHECKS } from '../harness/checks/all-checks.js';

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

/** The unit of the table: a top-level folder of harness/ (with its sub-folders), reports/, or harness/index.ts. */
function unitOf(file: string): string {
  const parts = file.split('/');
  if (parts[0] === 'reports') return 'reports/';
  return parts.length === 2 ? file : `${parts[0]}/${parts[1]}/`;
}

/** docs/design.md's "Layers" table: each folder and what it imports, in layer order (lowest first). */
function layersTable(): { unit: string; imports: string[] }[] {
  const design = readFileSync(join(root, 'docs/design.md'), 'utf8');
  const section = design.slice(design.indexOf('\n## Layers\n'), design.indexOf('\n## ', design.indexOf('\n## Layers\n') + 1));
  return section
    .split('\n')
    .filter((line) => /^\| (harness|reports)/.test(line))
    .map((line) => {
      const [unit, imports] = line
        .split('|')
        .slice(1, 3)
        .map((cell) => cell.trim());
      return { unit, imports: imports === '' ? [] : imports.split(/,\s*/) };
    });
}

const ALL = [...sourceFiles(root, 'harness'), ...sourceFiles(root, 'reports')];

/** The package's entries (package.json "exports"): for users, so nothing in the tree imports them. */
const PACKAGE_ENTRIES = ['harness/index.ts', 'harness/remote/index.ts'];

/** Folders whose index.ts is their entry: code outside the folder imports the folder through it alone (tests may reach inside). */
const FOLDER_ENTRIES = ['harness/config/', 'harness/containers/', 'harness/observe/', 'harness/preload/', 'harness/registry/'];

/**
 * The imports allowed past an entry. The reporters' constants take the kill points, modes and
 * statements from their leaf modules: harness/config/index.ts would load the scenario loader
 * (zod, the schema) into every reporter (the test of what reporters load, above).
 */
const PAST_ENTRY = new Set(['harness/results/constants.ts -> harness/config/types.ts', 'harness/results/constants.ts -> harness/config/statements.ts']);
/** Every file's imports of other files of harness/ and reports/. */
const FILE_EDGES = new Map(ALL.map((file) => [file, importsOf(root, file).filter((i) => ALL.includes(i.target))]));

function unitGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const [file, edges] of FILE_EDGES) {
    const from = unitOf(file);
    if (!graph.has(from)) graph.set(from, new Set());
    for (const { target } of edges) if (unitOf(target) !== from) graph.get(from)!.add(unitOf(target));
  }
  return graph;
}

describe('the table of layers (docs/design.md, "Layers")', () => {
  it('names every folder once, and nothing else', () => {
    const units = [...new Set(ALL.map(unitOf))].sort();
    const rows = layersTable().map((r) => r.unit);
    expect([...rows].sort()).toEqual(units);
    expect(new Set(rows).size).toBe(rows.length);
  });

  it('lists exactly what each folder imports, import type included', () => {
    const graph = unitGraph();
    const actual = Object.fromEntries([...graph].map(([unit, targets]) => [unit, [...targets].sort()]));
    const table = Object.fromEntries(layersTable().map((r) => [r.unit, [...r.imports].sort()]));
    expect(table).toEqual(actual);
  });

  it('is in layer order: each folder imports only folders above it', () => {
    const rows = layersTable();
    const rank = new Map(rows.map((r, i) => [r.unit, i]));
    const upward = rows.flatMap((r) => r.imports.filter((u) => (rank.get(u) ?? -1) >= rank.get(r.unit)!).map((u) => `${r.unit} -> ${u}`));
    expect(upward).toEqual([]);
  });

  it('no folder circle', () => {
    const graph = new Map([...unitGraph()].map(([unit, targets]) => [unit, [...targets]]));
    expect(circles(graph)).toEqual([]);
  });

  it('no file circle', () => {
    const graph = new Map([...FILE_EDGES].map(([file, edges]) => [file, edges.map((e) => e.target)]));
    expect(circles(graph)).toEqual([]);
  });

  it('the circle finder finds a loop through types, a self-import, and nothing in a tree', () => {
    const loop = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['d']],
      ['e', ['a']],
    ]);
    expect(circles(loop)).toEqual([['a', 'b', 'c'], ['d']]);
    expect(
      circles(
        new Map([
          ['a', ['b', 'c']],
          ['b', ['c']],
          ['c', []],
        ]),
      ),
    ).toEqual([]);
  });

  it("the package's entries (harness/index.ts, and harness/remote/index.ts for ./remote) only re-export, and no module imports them", () => {
    for (const entry of PACKAGE_ENTRIES) {
      const text = readFileSync(join(root, entry), 'utf8');
      const source = ts.createSourceFile('index.ts', text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
      expect(source.statements.filter((s) => !ts.isExportDeclaration(s)).map((s) => ts.SyntaxKind[s.kind])).toEqual([]);
      expect([...FILE_EDGES].filter(([, edges]) => edges.some((e) => e.target === entry)).map(([file]) => file)).toEqual([]);
    }
  });

  it('a folder with an entry is imported through its index.ts alone; every other index.ts is a package entry', () => {
    const past = [...FILE_EDGES].flatMap(([file, edges]) =>
      edges
        .map((e) => e.target)
        .filter((target) => {
          const folder = FOLDER_ENTRIES.find((f) => target.startsWith(f));
          return folder !== undefined && !file.startsWith(folder) && target !== `${folder}index.ts` && !PAST_ENTRY.has(`${file} -> ${target}`);
        })
        .map((target) => `${file} -> ${target}`),
    );
    expect(past).toEqual([]);
    // Each exception is still needed.
    const edges = new Set([...FILE_EDGES].flatMap(([file, es]) => es.map((e) => `${file} -> ${e.target}`)));
    expect([...PAST_ENTRY].filter((edge) => !edges.has(edge))).toEqual([]);
    const indexes = ALL.filter((file) => file.endsWith('/index.ts') || file === 'harness/index.ts');
    expect(indexes.sort()).toEqual([...FOLDER_ENTRIES.map((f) => `${f}index.ts`), ...PACKAGE_ENTRIES].sort());
  });

  it('what the reporters load at run time is constants: no scenario loader, no check, no process', () => {
    const loaded = new Set<string>();
    const visit = (file: string): void => {
      for (const { target, typeOnly } of FILE_EDGES.get(file) ?? []) {
        if (typeOnly || loaded.has(target)) continue;
        loaded.add(target);
        visit(target);
      }
    };
    for (const file of ALL.filter((f) => f.startsWith('reports/'))) visit(file);
    expect([...loaded].filter((f) => f.startsWith('harness/')).sort()).toEqual([
      // The client profiles: facts as data, a leaf (the default profile's name, for the mode labels).
      'harness/client-profiles/names.ts',
      'harness/config/statements.ts',
      'harness/config/types.ts',
      'harness/containment/step.ts',
      'harness/requirements/catalog.ts',
      'harness/requirements/requirement.ts',
      'harness/results/constants.ts',
      'harness/util/errors.ts',
    ]);
  });
});

describe('layering', () => {
  it('checks import only evidence types, config types, the requirements they test and each other', () => {
    const bad = sources('harness/checks').flatMap((file) =>
      imports(file)
        .map((spec) => resolved(file, spec))
        .filter((target) => !/^harness\/(checks|evidence|requirements)\//.test(target) && target !== 'harness/config/index.js')
        .map((target) => `${file} -> ${target}`),
    );
    expect(bad).toEqual([]);
  });

  it('a check is one unit: nothing outside harness/checks/ branches on a check id (its diagnosis and follow-up are found through the list of checks)', () => {
    const ids = CHECKS.map((check) => check.id).join('|');
    const branch = new RegExp(`case '(${ids})'|[!=]== '(${ids})'`);
    const files = [...sources('harness'), ...sources('reports')].filter((file) => !file.startsWith('harness/checks/'));
    expect(files.filter((file) => branch.test(readFileSync(join(root, file), 'utf8')))).toEqual([]);
    // Each check's folder holds the check itself.
    const folders = readdirSync(join(root, 'harness/checks'), { withFileTypes: true }).filter((e) => e.isDirectory());
    expect(folders.map((e) => e.name).sort()).toEqual(CHECKS.map((check) => check.id).sort());
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
        .filter((target) => target.startsWith('harness/') && target !== 'harness/results/types.js' && target !== 'harness/results/constants.js')
        .map((target) => `${file} -> ${target}`),
    );
    expect(bad).toEqual([]);
  });

  it('one /proc library: the remote reads process stat and environment through harness/observe, and the marker is declared once', () => {
    const readers = sources('harness/remote').filter((file) => /\/(stat|environ|cmdline)[`']/.test(readFileSync(join(root, file), 'utf8')));
    expect(readers).toEqual([]);
    const markers = sources('harness').filter((file) => /=\s*'CRASH_DRILL_RUN'/.test(readFileSync(join(root, file), 'utf8')));
    expect(markers).toEqual(['harness/observe/run-ids.ts']);
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

  it('containment in one folder: only harness/containment/ signals a process by its pid', () => {
    const signallers = sources('harness').filter((file) => /\bprocess\.kill\(/.test(readFileSync(join(root, file), 'utf8')));
    expect(signallers).toEqual(['harness/containment/signal.ts']);
  });

  it('the executor, the observer, containment, the registry and the run never print', () => {
    const files = [
      ...sources('harness/drill'),
      ...sources('harness/observe'),
      ...sources('harness/containment'),
      ...sources('harness/registry'),
      ...sources('harness/run'),
    ];
    const bad = files.filter((file) => /console\.|process\.stdout|process\.stderr/.test(readFileSync(join(root, file), 'utf8')));
    expect(bad).toEqual([]);
  });
});
