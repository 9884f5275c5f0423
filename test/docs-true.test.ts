/**
 * Docs that are true, and stay true: every repository path a document or a comment cites
 * exists, every file a comment names by itself exists somewhere in the repository, nothing
 * cites a ticket number a reader of the repository cannot open, docs/design.md names every
 * folder of harness/, and docs/contributing.md's Layout names every folder of harness/ and of the repository. Code is not read, only what people read: Markdown, and the comments of
 * TypeScript, perl, Python, YAML and shell files.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../harness/util/paths.js';

const root = packageRoot();

type Text = { file: string; line: number; text: string };

/** The comments of a JavaScript-family source, each line with its line number. */
function jsComments(file: string, source: string): Text[] {
  const out: Text[] = [];
  // Strings first, so that a '//' inside one ('http://...') is not a comment.
  const re = /'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"|`(?:\\.|[^`\\])*`|\/\/[^\n]*|\/\*[\s\S]*?\*\//g;
  for (const m of source.matchAll(re)) {
    if (!m[0].startsWith('/')) continue;
    const first = source.slice(0, m.index).split('\n').length;
    for (const [i, text] of m[0].split('\n').entries()) out.push({ file, line: first + i, text });
  }
  return out;
}

/** What people read in a file: all of a Markdown file, the comments of anything else. */
function readable(file: string, source: string): Text[] {
  if (file.endsWith('.md')) return source.split('\n').map((text, i) => ({ file, line: i + 1, text }));
  if (/\.(ts|mts|mjs|js)$/.test(file)) return jsComments(file, source);
  if (/\.(pl|py|ya?ml|sh)$/.test(file) || file === '.ci/run')
    return source.split('\n').flatMap((text, i) => {
      const at = text.search(/(^|\s)#/);
      return at < 0 ? [] : [{ file, line: i + 1, text: text.slice(at) }];
    });
  return [];
}

/** A repository path cited in `text` (harness/..., test/..., docs/...). */
const CITED = /(?<![\w./@-])((?:harness|test|bench|fake-servers|reports|docs|schema)\/[\w./-]*\w)(\*)?/g;
/** A file named by itself in a comment (`holder-pool.ts`). */
const BARE = /(?<![\w./@-])([\w-]+\.(?:ts|pl|mjs|py))\b/g;
/** Our own tickets: "issue 9", "issues 12 and 13". Another project's are cited as `repo #N`. */
const TICKET = /\bissues? #?\d+/i;

/** Files named in comments that are not ours on purpose: a user's server, another project's source. */
const NOT_OURS = new Set([
  'server.py', // a user's Python server in examples
  'server.mjs', // a user's Node server in examples
  'command.ts', // @actions/core's source, cited for its escaping rules
]);

function citedPathMissing(path: string, glob: boolean, exists: (p: string) => boolean): boolean {
  const p = path.replace(/\.$/, '');
  if (glob) {
    const dir = p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '.';
    const prefix = basename(p);
    return !exists(dir) || !readdirSync(join(root, dir)).some((name) => name.startsWith(prefix));
  }
  return !(exists(p) || exists(p.replace(/\.js$/, '.ts')) || exists(`${p}.ts`));
}

/**
 * Of the cited paths that do not exist, those git ignores: build outputs (the language fakes'
 * bin/ folders) that a fresh clone has not built yet, where `npm ci && npm test` runs. Each is
 * asked with a name inside it too: a pattern like `bin/` matches only a folder, which git cannot
 * tell of a path that does not exist.
 */
function ignoredByGit(paths: string[]): Set<string> {
  if (paths.length === 0) return new Set();
  const input = paths.flatMap((p) => [p, `${p}/x`]).join('\n');
  let out: string;
  try {
    out = execFileSync('git', ['check-ignore', '--stdin'], { cwd: root, input, encoding: 'utf8' });
  } catch (error) {
    // Exit 1: none of them is ignored.
    if ((error as { status?: number }).status !== 1) throw error;
    out = '';
  }
  const hit = new Set(out.split('\n').filter(Boolean));
  return new Set(paths.filter((p) => hit.has(p) || hit.has(`${p}/x`)));
}

function trackedFiles(): string[] {
  return execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean);
}

function problems(): { missing: string[]; bare: string[]; tickets: string[] } {
  const files = trackedFiles().filter((f) => existsSync(join(root, f)));
  const names = new Set(files.map((f) => basename(f)));
  const exists = (p: string) => existsSync(join(root, p));
  const missing: { at: string; path: string }[] = [];
  const bare: string[] = [];
  const tickets: string[] = [];
  for (const file of files) {
    if (file.startsWith('node_modules/') || statSync(join(root, file)).size > 2_000_000) continue;
    for (const { line, text } of readable(file, readFileSync(join(root, file), 'utf8'))) {
      for (const m of text.matchAll(CITED)) if (citedPathMissing(m[1], m[2] === '*', exists)) missing.push({ at: `${file}:${line}`, path: m[1] });
      if (!file.endsWith('.md'))
        for (const m of text.matchAll(BARE)) {
          const name = m[1];
          if (!names.has(name) && !names.has(name.replace(/\.js$/, '.ts')) && !NOT_OURS.has(name)) bare.push(`${file}:${line}: ${name}`);
        }
      if (TICKET.test(text)) tickets.push(`${file}:${line}: ${text.trim()}`);
    }
  }
  const built = ignoredByGit([...new Set(missing.map((m) => m.path.replace(/\.$/, '')))]);
  return { missing: missing.filter((m) => !built.has(m.path.replace(/\.$/, ''))).map((m) => `${m.at}: ${m.path}`), bare, tickets };
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, each space a hyphen. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** A Markdown text without its fenced code blocks. */
function prose(markdown: string): string {
  let fenced = false;
  return markdown
    .split('\n')
    .filter((line) => {
      if (line.startsWith('```')) fenced = !fenced;
      return !fenced && !line.startsWith('```');
    })
    .join('\n');
}

/** The anchors of a Markdown file's headings (a repeated heading gets -1, -2, as GitHub does). */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const line of prose(markdown).split('\n')) {
    const heading = /^#{1,6} (.*)$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const base = anchorOf(heading);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** The links of the README and of docs/ that lead to no file, or to no heading of their file. */
function brokenLinks(): string[] {
  const pages = [
    'README.md',
    ...readdirSync(join(root, 'docs'))
      .filter((n) => n.endsWith('.md'))
      .map((n) => `docs/${n}`),
  ];
  const broken: string[] = [];
  for (const page of pages) {
    const text = readFileSync(join(root, page), 'utf8');
    for (const m of prose(text).matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1];
      if (/^[a-z]+:/.test(target)) continue;
      const [path, anchor] = target.split('#');
      const file = path === '' ? page : join(dirname(page), path);
      if (!existsSync(join(root, file))) broken.push(`${page}: ${target}: no such file`);
      else if (anchor !== undefined && file.endsWith('.md') && !anchorsOf(readFileSync(join(root, file), 'utf8')).has(anchor))
        broken.push(`${page}: ${target}: no such heading`);
    }
  }
  return broken;
}

describe('docs that are true', () => {
  it('the detectors find what they look for and nothing else', () => {
    const sample = [
      "import { x } from './a.js'; // see harness/nope/missing.ts and issue 7",
      "const url = 'http://example.com/harness/nope.ts'; // typescript-sdk #2002, harness/registry/runs.ts",
      '/** harness/results/diagnosis* and fake-servers/sdk2/slow-start, gone.ts */',
    ].join('\n');
    const texts = readable('x.ts', sample);
    expect(texts.map((t) => t.line)).toEqual([1, 2, 3]);
    const exists = (p: string) => existsSync(join(root, p));
    const cited = texts.flatMap((t) =>
      [...t.text.matchAll(CITED)].map((m) => `${m[1]}${m[2] ?? ''} ${citedPathMissing(m[1], m[2] === '*', exists) ? 'missing' : 'ok'}`),
    );
    expect(cited).toEqual([
      'harness/nope/missing.ts missing',
      'harness/registry/runs.ts ok',
      'harness/results/diagnosis* ok',
      'fake-servers/sdk2/slow-start ok',
    ]);
    expect(texts.flatMap((t) => [...t.text.matchAll(BARE)].map((m) => m[1]))).toEqual(['gone.ts']);
    // A build output a fresh clone has not made is cited rightly (git ignores it); a path nobody makes is not.
    expect([...ignoredByGit(['fake-servers/go/bin/not-built-yet', 'fake-servers/go-http/bin', 'harness/nope/missing.ts', 'fake-servers/go/nope'])]).toEqual([
      'fake-servers/go/bin/not-built-yet',
      'fake-servers/go-http/bin',
    ]);
    expect(texts.map((t) => TICKET.test(t.text))).toEqual([true, false, false]);
    // A path in code, not in a comment, is not read: 'http://example.com/harness/nope.ts' above.
    expect(readable('x.pl', "my $x = 'harness/nope.ts'; # harness/also-nope.ts").map((t) => t.text.trim())).toEqual(['# harness/also-nope.ts']);
  });

  it('reads headings as GitHub anchors them, and leaves code blocks out', () => {
    expect(anchorOf("The server's own activity record")).toBe('the-servers-own-activity-record');
    expect(anchorOf('Servers in Go, Rust, Java and C#')).toBe('servers-in-go-rust-java-and-c');
    expect(anchorOf('1. Find them: `crash-drill orphans`')).toBe('1-find-them-crash-drill-orphans');
    expect([...anchorsOf('# A\n## B b\n```\n# not a heading\n```\n## B b\n')]).toEqual(['a', 'b-b', 'b-b-1']);
  });

  it('every link of the README and of docs/ leads to a file, and to a heading of it', () => {
    expect(brokenLinks()).toEqual([]);
  });

  it('every repository path a document or a comment cites exists', () => {
    expect(problems().missing).toEqual([]);
  });

  it('every file a comment names by itself exists in the repository', () => {
    expect(problems().bare).toEqual([]);
  });

  it('nothing cites a ticket number of ours', () => {
    expect(problems().tickets).toEqual([]);
  });

  it('docs/design.md names every folder of harness/', () => {
    const design = readFileSync(join(root, 'docs/design.md'), 'utf8');
    const folders = (dir: string): string[] =>
      readdirSync(join(root, dir), { withFileTypes: true })
        .filter((e) => e.isDirectory())
        .flatMap((e) => [`${dir}/${e.name}`, ...folders(`${dir}/${e.name}`)]);
    expect(folders('harness').filter((f) => !design.includes(`${f}/`))).toEqual([]);
  });

  it("docs/contributing.md's Layout names every top-level folder of harness/ and of the repository, and no folder that is not there", () => {
    const page = readFileSync(join(root, 'docs/contributing.md'), 'utf8');
    const start = page.indexOf('\n## Layout\n');
    expect(start).toBeGreaterThanOrEqual(0);
    const block = page.slice(page.indexOf('```\n', start) + 4, page.indexOf('\n```', page.indexOf('```\n', start) + 4));
    const named = (indent: string) =>
      block
        .split('\n')
        .map((line) => new RegExp(`^${indent}([\\w.-]+)/(?=\\s)`).exec(line)?.[1])
        .filter((name): name is string => name !== undefined)
        .sort();
    const dirs = (dir: string) =>
      readdirSync(join(root, dir), { withFileTypes: true })
        .filter((e) => e.isDirectory())
        .map((e) => e.name);
    expect(named('  ')).toEqual(dirs('harness').sort());
    // The repository's folders that git tracks (schema/ is generated by the build, and named too).
    const tracked = [
      ...new Set(
        trackedFiles()
          .filter((f) => f.includes('/') && !f.startsWith('.'))
          .map((f) => f.split('/')[0]),
      ),
    ];
    expect(named('')).toEqual([...new Set([...tracked, 'schema'])].sort());
  });
});
