/**
 * Every error class the tree exports prints its own name: `String(new UsageError('x'))` is
 * "UsageError: x", never "Error: x". The base sets `name` once for all of them
 * (harness/util/errors.ts); this finds every exported class of harness/ and reports/ that is an
 * Error, builds one, and reads what it prints, so a class added later is covered too.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../harness/util/paths.js';

const root = packageRoot();
const CLASS = /^export (?:abstract )?class \w+ extends \w+/m;

/** The source files of harness/ and reports/ that export a class. */
function filesWithClasses(): string[] {
  return ['harness', 'reports'].flatMap((dir) =>
    readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts'))
      .map((name) => join(dir, name))
      .filter((file) => CLASS.test(readFileSync(join(root, file), 'utf8'))),
  );
}

type ErrorClass = new (...args: unknown[]) => Error;

/** One instance of the class, from the first of a few argument shapes its constructor takes. */
function build(Class: ErrorClass): Error {
  const shapes: unknown[][] = [['a message', []], [{ message: 'a message' }], ['A_CODE', 'a message'], [['a-file']]];
  for (const args of shapes) {
    try {
      return new Class(...args);
    } catch {
      // another shape
    }
  }
  throw new Error(`${Class.name}: none of the argument shapes builds it; add one to this test`);
}

describe('error names', () => {
  it('every exported error class prints its own name', async () => {
    const classes: [string, ErrorClass][] = [];
    for (const file of filesWithClasses()) {
      const mod = (await import(pathToFileURL(join(root, file)).href)) as Record<string, unknown>;
      for (const [name, value] of Object.entries(mod))
        if (typeof value === 'function' && value.prototype instanceof Error) classes.push([name, value as ErrorClass]);
    }
    // The tree's own: the base and its branches, the usage error, the control-flow one, and a class from each layer.
    expect(classes.map(([name]) => name)).toEqual(
      expect.arrayContaining(['CrashDrillError', 'UserError', 'InternalError', 'UsageError', 'Interrupted', 'ConfigError', 'RegistryError', 'ReporterError']),
    );
    const printed = classes.map(([name, Class]) => [name, String(build(Class)).split(':')[0]]);
    expect(printed).toEqual(classes.map(([name]) => [name, name]));
  });
});
