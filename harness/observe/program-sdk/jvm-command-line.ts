/**
 * The jars a `java` command line runs, as the launcher finds them (the `java` tool's reference,
 * JDK 17: "Standard Options for Java", JDK_JAVA_OPTIONS, "java Command-Line Argument Files"):
 * `-jar`, else the class path (or CLASSPATH) with `dir/*` expanded, and the module path. The
 * -jar manifest's Class-Path is left to jvm-mcp-sdk.ts.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';

export interface JvmCommand {
  /** `-jar x.jar`, `-cp ... Main`, or `-m module/Main`. */
  form: 'jar' | 'class' | 'module';
  /** The -jar file, the main class, or the module. */
  main: string;
  /** Class path and module path entries (for -jar, the jar), absolute, in order, wildcards expanded. */
  entries: string[];
}

export type JvmCommandResult = { command: JvmCommand; reason: null } | { command: null; reason: string };

/** Launcher options that take the next word as their value. */
const WITH_VALUE = new Set([
  '-cp',
  '-classpath',
  '--class-path',
  '-p',
  '--module-path',
  '--upgrade-module-path',
  '--add-modules',
  '--limit-modules',
  '--enable-native-access',
  '--add-reads',
  '--add-exports',
  '--add-opens',
  '--patch-module',
  '--source',
  '-d',
  '--describe-module',
]);

export function parseJvmCommand(argv: string[], cwd: string, env: Record<string, string | undefined> = {}): JvmCommandResult {
  if (argv.length === 0 || basename(argv[0]) !== 'java') return { command: null, reason: `not a java command line: ${argv[0] ?? '(empty)'}` };
  let args: string[];
  try {
    args = expandArgFiles([...words(env.JDK_JAVA_OPTIONS ?? ''), ...argv.slice(1)], cwd);
  } catch (err) {
    return { command: null, reason: (err as Error).message };
  }
  let classPath: string | null = null;
  const modulePath: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const [name, inline] = a.startsWith('--') && a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, null];
    const value = () => inline ?? args[++i];
    if (name === '-jar') {
      if (!args[i + 1]) return { command: null, reason: '-jar names no file' };
      const jar = absolute(args[i + 1], cwd);
      return { command: { form: 'jar', main: jar, entries: [jar] }, reason: null };
    }
    if (name === '-cp' || name === '-classpath' || name === '--class-path') classPath = value() ?? '';
    else if (name === '-p' || name === '--module-path') modulePath.push(...(value() ?? '').split(':'));
    else if (name === '-m' || name === '--module') {
      const main = value() ?? '';
      return { command: { form: 'module', main, entries: [...modules(modulePath, cwd), ...expand(splitPath(classPath ?? env.CLASSPATH), cwd)] }, reason: null };
    } else if (WITH_VALUE.has(name)) {
      if (inline === null) i++;
    } else if (!a.startsWith('-')) {
      return {
        command: { form: 'class', main: a, entries: [...expand(splitPath(classPath ?? env.CLASSPATH ?? '.'), cwd), ...modules(modulePath, cwd)] },
        reason: null,
      };
    }
  }
  return { command: null, reason: 'no main class, -jar or -m in the command line' };
}

function splitPath(path: string | undefined): string[] {
  return path ? path.split(':').filter(Boolean) : [];
}

function absolute(path: string, cwd: string): string {
  return isAbsolute(path) ? path : resolve(cwd, path);
}

/** `dir/*` is every jar in dir, as the launcher expands it. */
function expand(entries: string[], cwd: string): string[] {
  return entries.flatMap((entry) => {
    const path = absolute(entry, cwd);
    if (basename(path) !== '*') return [path];
    return jarsIn(dirname(path));
  });
}

/** A module path entry is a modular jar, or a folder of them. */
function modules(entries: string[], cwd: string): string[] {
  return entries.filter(Boolean).flatMap((entry) => {
    const path = absolute(entry, cwd);
    try {
      return statSync(path).isDirectory() ? jarsIn(path) : [path];
    } catch {
      return [path];
    }
  });
}

function jarsIn(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((n) => /\.jar$/i.test(n))
      .sort()
      .map((n) => join(dir, n));
  } catch {
    return [];
  }
}

/** `@file` arguments: the file's words, in place (the launcher does not expand them recursively). */
function expandArgFiles(args: string[], cwd: string): string[] {
  return args.flatMap((a) => {
    if (!a.startsWith('@') || a.startsWith('@@')) return [a.startsWith('@@') ? a.slice(1) : a];
    const file = absolute(a.slice(1), cwd);
    let text: string;
    try {
      if (!statSync(file).isFile()) throw new Error('not a file');
      text = readFileSync(file, 'utf8');
    } catch (err) {
      throw new Error(`the argument file ${file} could not be read: ${(err as Error).message}`);
    }
    return words(text);
  });
}

function words(text: string): string[] {
  return [...text.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]);
}
