/** A server's name as its user knows it, from its command line (package, script's package, module, jar, else program); never a value. */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { looksLikeSecret } from '../util/secrets.js';

export interface SubjectName {
  name: string;
  version?: string;
}

const NODE = /^(node|nodejs|bun|deno|tsx|ts-node)(\.exe)?$/;
const PYTHON = /^(python|python3|python3\.\d+|pypy3?)(\.exe)?$/;
/** Launchers that run a package named by their first non-option argument. */
const PACKAGE_RUNNERS: Record<string, 'npm' | 'pypi'> = { npx: 'npm', bunx: 'npm', uvx: 'pypi' };
/** Options of those launchers (and of `npm exec`, `pnpm dlx`, `pipx run`, `uv tool run`) that take a value. */
const VALUED = new Set(['-p', '--package', '--from', '--with', '--python', '-c', '--call', '--index-url', '--registry', '--cache', '--spec']);

/** The name of a server started as `command args` from `cwd`. */
export function subjectName(command: string, args: readonly string[], cwd: string): SubjectName {
  const found = nameOf(command, args, cwd);
  if (found && found.name !== '' && !looksLikeSecret(found.name)) return found;
  return { name: basename(command) || command };
}

function nameOf(command: string, args: readonly string[], cwd: string): SubjectName | null {
  const program = basename(command);
  if (program === 'env') {
    const rest = afterEnv(args);
    return rest.length > 0 ? nameOf(rest[0]!, rest.slice(1), cwd) : null;
  }
  const runner = PACKAGE_RUNNERS[program];
  if (runner) return packageArg(args, runner, args.includes('--from') ? args[args.indexOf('--from') + 1] : undefined);
  if ((program === 'npm' && args[0] === 'exec') || (/^(pnpm|yarn)$/.test(program) && args[0] === 'dlx'))
    return packageArg(args.slice(1), 'npm', packageOption(args));
  if (program === 'pipx' && args[0] === 'run') return packageArg(args.slice(1), 'pypi', args.includes('--spec') ? args[args.indexOf('--spec') + 1] : undefined);
  if (program === 'uv' && args[0] === 'tool' && args[1] === 'run')
    return packageArg(args.slice(2), 'pypi', args.includes('--from') ? args[args.indexOf('--from') + 1] : undefined);
  if (program === 'uv' && args[0] === 'run') return nameOf(...firstCommand(args.slice(1)), cwd);
  if (NODE.test(program)) {
    const script = firstPlain(args);
    return script ? (scriptOwner(resolve(cwd, script), 'package.json') ?? { name: basename(script) }) : null;
  }
  if (PYTHON.test(program)) {
    const m = args.indexOf('-m');
    if (m >= 0 && args[m + 1]) return { name: args[m + 1]!.split('.')[0]! };
    const script = firstPlain(args);
    return script ? (scriptOwner(resolve(cwd, script), 'pyproject.toml') ?? { name: basename(script) }) : null;
  }
  if (program === 'java') return javaMain(args);
  // A program installed by a package manager (node_modules/.bin/x -> ../pkg/bin/x.js): its package.
  const path = command.includes('/') ? resolve(cwd, command) : null;
  if (path) {
    const owner = scriptOwner(path, 'package.json');
    if (owner) return owner;
  }
  return { name: program };
}

/** What `env` runs: past its options (`-i`, `-u NAME`) and its `NAME=value` assignments. */
function afterEnv(args: readonly string[]): string[] {
  let i = 0;
  while (i < args.length) {
    const a = args[i]!;
    if (a === '-u' || a === '--unset' || a === '-C' || a === '--chdir') i += 2;
    else if (a.startsWith('-') || /^[A-Za-z_][A-Za-z0-9_]*=/.test(a)) i += 1;
    else break;
  }
  return args.slice(i);
}

function firstCommand(args: readonly string[]): [string, string[]] {
  const rest = skipOptions(args);
  return [rest[0] ?? '', rest.slice(1)];
}

/** The args from the first one that is neither an option nor an option's value. */
function skipOptions(args: readonly string[]): string[] {
  let i = 0;
  while (i < args.length) {
    const a = args[i]!;
    if (a === '--') return args.slice(i + 1);
    if (VALUED.has(a)) i += 2;
    else if (a.startsWith('-')) i += 1;
    else break;
  }
  return args.slice(i);
}

function firstPlain(args: readonly string[]): string | undefined {
  return skipOptions(args)[0];
}

function packageOption(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '-p' || args[i] === '--package') return args[i + 1];
    const eq = /^--package=(.+)$/.exec(args[i]!);
    if (eq) return eq[1];
  }
  return undefined;
}

/** `@scope/pkg@1.2.3`, `pkg==1.0`, `pkg[extra]>=2`: the package and the version pinned. */
function packageArg(args: readonly string[], registry: 'npm' | 'pypi', spec?: string): SubjectName | null {
  const arg = spec ?? firstPlain(args);
  if (!arg) return null;
  if (registry === 'npm') {
    const m = /^(@[^/@\s]+\/[^@\s]+|[^@\s]+)(?:@(.+))?$/.exec(arg);
    return m ? { name: m[1]!, ...(m[2] ? { version: m[2] } : {}) } : null;
  }
  const m = /^([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?(?:(==|>=|<=|~=|@)\s*(.+))?$/.exec(arg);
  return m ? { name: m[1]!, ...(m[2] === '==' || m[2] === '@' ? { version: m[3] } : {}) } : null;
}

/** The package whose manifest is nearest above a file, when the file is what that package runs (installed, `main` or `bin`). */
function scriptOwner(file: string, manifest: 'package.json' | 'pyproject.toml'): SubjectName | null {
  let real: string;
  try {
    real = realpathSync(file);
  } catch {
    real = file;
  }
  const installed = /\/(node_modules|site-packages|dist-packages)\//.test(real);
  for (let dir = dirname(real); ; dir = dirname(dir)) {
    const path = join(dir, manifest);
    if (existsSync(path)) {
      if (manifest === 'pyproject.toml') return installed ? pyprojectName(path) : null;
      const json = readPackageJson(path);
      if (!json || typeof json.name !== 'string' || json.name === '') return null;
      if (!installed && !entriesOf(json).some((entry) => resolve(dir, entry) === real)) return null;
      return { name: json.name, ...(typeof json.version === 'string' ? { version: json.version } : {}) };
    }
    if (dirname(dir) === dir) return null;
  }
}

type PackageJson = { name?: unknown; version?: unknown; main?: unknown; bin?: unknown };

function readPackageJson(path: string): PackageJson | null {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as PackageJson;
  } catch {
    return null;
  }
}

/** The files a package runs: its main and its bin entries. */
function entriesOf(json: PackageJson): string[] {
  const bins = typeof json.bin === 'string' ? [json.bin] : json.bin && typeof json.bin === 'object' ? Object.values(json.bin) : [];
  return [json.main, ...bins].filter((e): e is string => typeof e === 'string');
}

function pyprojectName(path: string): SubjectName | null {
  try {
    const text = readFileSync(path, 'utf8');
    const project = text.slice(text.search(/^\[project\]\s*$/m));
    if (!/^\[project\]/.test(project)) return null;
    const name = /^name\s*=\s*["']([^"']+)["']/m.exec(project.split(/^\[(?!project\])/m)[0]!);
    return name ? { name: name[1]! } : null;
  } catch {
    return null;
  }
}

/** `java -jar server.jar` names the jar; `java -cp x.jar com.example.Main` the main class. */
function javaMain(args: readonly string[]): SubjectName | null {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-jar') return args[i + 1] ? { name: basename(args[i + 1]!).replace(/\.jar$/, '') } : null;
    if (a === '-cp' || a === '-classpath' || a === '--class-path' || a === '-p' || a === '--module-path') {
      i++;
      continue;
    }
    if (a === '-m' || a === '--module') return args[i + 1] ? { name: args[i + 1]!.split('/').pop()! } : null;
    if (!a.startsWith('-')) return { name: a };
  }
  return null;
}
