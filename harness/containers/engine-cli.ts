/**
 * Recognises `docker run` / `podman run` in an argv, global options included, and parses the run
 * options far enough for the image, name, labels, --init, --rm, -d. Any flag not known to stand
 * alone takes a value, so an unknown flag costs at worst a wrong image name, never a wrong label.
 */
import type { Engine } from '../containment/step.js';

/** The engine names are declared once, with the containment vocabulary that targets a container on one. */
export type { Engine };

export type EngineCommand = {
  engine: Engine;
  /** Index in argv of the subcommand (`run`, `create`, ...). */
  subcommandAt: number;
  subcommand: string;
  /** Global options that choose the engine endpoint, to be repeated for the harness's own queries. */
  endpoint: string[];
};

export type RunCommand = EngineCommand & {
  image: string | null;
  name: string | null;
  labels: Record<string, string>;
  detach: boolean;
  init: boolean;
  rm: boolean;
  interactive: boolean;
};

const ENGINES = new Set<Engine>(['docker', 'podman']);
const RUN_SUBCOMMANDS = new Set(['run', 'create']);

/** docker/podman run flags that take no value (the rest take one unless written `--x=v`). */
const RUN_FLAGS = new Set([
  '-d',
  '--detach',
  '-i',
  '--interactive',
  '-t',
  '--tty',
  '--rm',
  '--init',
  '--privileged',
  '--read-only',
  '-P',
  '--publish-all',
  '--no-healthcheck',
  '--oom-kill-disable',
  '-q',
  '--quiet',
  '--help',
  '--disable-content-trust',
  '--replace',
  '--rmi',
  '--http-proxy',
  '--sig-proxy',
  '--use-init',
]);
const SHORT_FLAGS = new Set(['d', 'i', 't', 'P', 'q']);
/** Global options with a value that say which engine to talk to. */
const ENDPOINT_OPTIONS = new Set(['-H', '--host', '-c', '--context', '--url', '--connection', '--remote']);
/** Global options with a value that do not (docker's --config, --log-level, podman's --root, ...). */
const GLOBAL_WITH_VALUE = new Set([
  '--config',
  '-l',
  '--log-level',
  '--tlscacert',
  '--tlscert',
  '--tlskey',
  '--root',
  '--runroot',
  '--storage-driver',
  '--cgroup-manager',
]);

function baseName(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? path : path.slice(slash + 1);
}

export function engineOf(program: string | undefined): Engine | null {
  if (!program) return null;
  const name = baseName(program.trim().split(/\s+/)[0] ?? '');
  return ENGINES.has(name as Engine) ? (name as Engine) : null;
}

/** The engine and subcommand of argv, or null when argv is not an engine CLI. */
export function parseEngineCommand(argv: readonly string[]): EngineCommand | null {
  const engine = engineOf(argv[0]);
  if (!engine) return null;
  const endpoint: string[] = [];
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] = splitInline(arg);
    if (ENDPOINT_OPTIONS.has(flag)) {
      if (inline !== null) endpoint.push(arg);
      else endpoint.push(arg, argv[++i] ?? '');
      continue;
    }
    if (GLOBAL_WITH_VALUE.has(flag)) {
      if (inline === null) i++;
      continue;
    }
    if (arg.startsWith('-')) continue;
    // `docker container run` is `docker run`.
    if (arg === 'container' && argv[i + 1] && !argv[i + 1].startsWith('-')) return { engine, subcommandAt: i + 1, subcommand: argv[i + 1], endpoint };
    return { engine, subcommandAt: i, subcommand: arg, endpoint };
  }
  return null;
}

function splitInline(arg: string): [string, string | null] {
  if (!arg.startsWith('--')) return [arg, null];
  const eq = arg.indexOf('=');
  return eq < 0 ? [arg, null] : [arg.slice(0, eq), arg.slice(eq + 1)];
}

/** `docker run` / `podman run` / `create`, with its options parsed; null for anything else. */
export function parseRunCommand(argv: readonly string[]): RunCommand | null {
  const base = parseEngineCommand(argv);
  if (!base || !RUN_SUBCOMMANDS.has(base.subcommand)) return null;
  const run: RunCommand = { ...base, image: null, name: null, labels: {}, detach: false, init: false, rm: false, interactive: false };
  for (let i = base.subcommandAt + 1; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      run.image = argv[i + 1] ?? null;
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      run.image = arg;
      break;
    }
    const [flag, inline] = splitInline(arg);
    if (arg.startsWith('--')) {
      if (RUN_FLAGS.has(flag)) {
        const on = inline === null || inline === 'true';
        if (flag === '--detach') run.detach = on;
        if (flag === '--init' || flag === '--use-init') run.init = on;
        if (flag === '--rm') run.rm = on;
        if (flag === '--interactive') run.interactive = on;
        continue;
      }
      const value = inline ?? argv[++i] ?? '';
      if (flag === '--name') run.name = value;
      if (flag === '--label') addLabel(run.labels, value);
      continue;
    }
    // Short options, possibly bundled: -it, -dit, -e X, -eX, -l k=v.
    const letters = arg.slice(1);
    for (let j = 0; j < letters.length; j++) {
      const letter = letters[j];
      if (SHORT_FLAGS.has(letter)) {
        if (letter === 'd') run.detach = true;
        if (letter === 'i') run.interactive = true;
        continue;
      }
      const rest = letters.slice(j + 1);
      const value = rest.length > 0 ? rest : (argv[++i] ?? '');
      if (letter === 'l') addLabel(run.labels, value);
      break;
    }
  }
  return run;
}

function addLabel(labels: Record<string, string>, spec: string): void {
  const eq = spec.indexOf('=');
  if (eq < 0) labels[spec] = '';
  else labels[spec.slice(0, eq)] = spec.slice(eq + 1);
}

/** True for an engine CLI that asks for a new container (`run`/`create`). */
export function isEngineRun(argv: readonly string[]): boolean {
  return parseRunCommand(argv) !== null;
}
