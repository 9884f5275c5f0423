import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import type { Reporter, ReporterOptions } from './types.js';
import { UserError } from '../harness/results/constants.js';

export type { ReporterOptions } from './types.js';

/** Built-in reporters, each a module exporting `create(options): Reporter`: `reports/<name>.js`, and the HTML one with its parts in reports/html/ (reporter.js). */
export const BUILTIN_REPORTERS = ['console', 'json', 'junit', 'markdown', 'html'] as const;

/** The file each built-in reporter writes in the report folder. */
export const REPORT_FILES: Readonly<Record<string, string>> = { html: 'report.html', markdown: 'summary.md', junit: 'junit.xml', json: 'results.json' };

type ReporterModule = { create?: unknown; default?: unknown };

/** Each built-in by a static import, loaded when named: it resolves the same from dist/ and from the bundled CLI. */
const BUILTIN_MODULES: Record<(typeof BUILTIN_REPORTERS)[number], () => Promise<ReporterModule>> = {
  console: () => import('./console.js'),
  json: () => import('./json.js'),
  junit: () => import('./junit.js'),
  markdown: () => import('./markdown.js'),
  html: () => import('./html/reporter.js'),
};

export class ReporterError extends UserError {
  readonly code = 'CRASH_DRILL_REPORTER';
}

/**
 * A reporter by name, or loaded from a path (a module whose default export or `create` builds
 * one from the options, or whose default export is a reporter object).
 */
export async function loadReporter(nameOrPath: string, options: ReporterOptions): Promise<Reporter> {
  const builtin = (BUILTIN_REPORTERS as readonly string[]).includes(nameOrPath);
  let mod: ReporterModule;
  try {
    mod = builtin
      ? await BUILTIN_MODULES[nameOrPath as (typeof BUILTIN_REPORTERS)[number]]()
      : ((await import(pathToFileURL(resolve(nameOrPath)).href)) as ReporterModule);
  } catch (error) {
    const known = BUILTIN_REPORTERS.join(', ');
    throw new ReporterError(
      `--reporter ${nameOrPath}: ${builtin ? 'cannot load it' : `not a built-in reporter (${known}) and not a loadable module`}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const factory = typeof mod.create === 'function' ? mod.create : typeof mod.default === 'function' ? mod.default : null;
  const reporter = factory ? (factory as (o: ReporterOptions) => Reporter)(options) : mod.default;
  if (!reporter || typeof reporter !== 'object')
    throw new ReporterError(`--reporter ${nameOrPath}: expected a module exporting create(options) or a reporter object`);
  return reporter as Reporter;
}

/**
 * The reporters of a run: json always (results.json is the contract), the named ones, and the
 * console reporter when none of them prints to the terminal.
 */
export async function loadReporters(names: string[], options: ReporterOptions): Promise<Reporter[]> {
  const wanted = [...new Set(['json', ...names])];
  const files = Object.keys(REPORT_FILES)
    .filter((name) => wanted.includes(name))
    .map((name) => REPORT_FILES[name]);
  const withFiles = { ...options, files };
  const reporters = await Promise.all(wanted.map((name) => loadReporter(name, withFiles)));
  if (!reporters.some((r) => r.printsToStdio?.())) reporters.unshift(await loadReporter('console', withFiles));
  return reporters;
}
