/**
 * Labels the drill's container (`docker run --label dev.crash-drill.run=<drill id> ...`): the
 * label ties a container to its drill where `docker ps` diffs and `docker events` cannot. Reached
 * in the subject command, behind `env`, and inside `sh -c '<script>'`; a launcher's own engine
 * command is tied by the engine CLI process and the engine's events instead (attribute.ts).
 */
import { engineOf, parseRunCommand, type Engine } from './engine-cli.js';

function endpointOf(argv: readonly string[]): string[] {
  return parseRunCommand(argv)?.endpoint ?? [];
}

export const RUN_LABEL = 'dev.crash-drill.run';

export type LabelChange =
  | { changed: true; engine: Engine; how: 'argv' | 'sh -c'; label: string; before: string[]; after: string[]; endpoint: string[] }
  | { changed: false; reason: string; before: string[] };

const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh']);

function baseName(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? path : path.slice(slash + 1);
}

/** argv with the label inserted after the run subcommand, or null when argv is no engine run. */
export function labelArgv(argv: readonly string[], drillId: string): string[] | null {
  const run = parseRunCommand(argv);
  if (!run) return null;
  const at = run.subcommandAt + 1;
  return [...argv.slice(0, at), '--label', `${RUN_LABEL}=${drillId}`, ...argv.slice(at)];
}

/** `docker run` / `podman run` at the start of a shell command (after `;`, `&&`, `|`, `(`, `exec`). */
const SHELL_RUN = /(^|[;&|(]\s*|\bexec\s+|\n\s*)((?:\S*\/)?(?:docker|podman))(\s+(?:container\s+)?)(run|create)(?=\s)/g;

export function labelShellScript(script: string, drillId: string): { script: string; engine: Engine } | null {
  let engine: Engine | null = null;
  const out = script.replace(SHELL_RUN, (_all, lead: string, program: string, gap: string, sub: string) => {
    engine ??= engineOf(program);
    return `${lead}${program}${gap}${sub} --label ${RUN_LABEL}=${drillId}`;
  });
  return engine ? { script: out, engine } : null;
}

/** Why a subject got no label: no engine at all (most drills), or an engine command that starts no container. */
export type LabelOutcome =
  | { kind: 'labelled'; change: Extract<LabelChange, { changed: true }> }
  | { kind: 'no-engine' | 'not-a-run'; change: Extract<LabelChange, { changed: false }> };

export function labelCommand(argv: readonly string[], drillId: string): LabelChange {
  return labelSubject(argv, drillId).change;
}

/** The label change with what kind of outcome it is, so a caller branches on the kind, never on the reason's text. */
export function labelSubject(argv: readonly string[], drillId: string): LabelOutcome {
  const change = labelledChange(argv, drillId);
  if (change) return { kind: 'labelled', change };
  const before = [...argv];
  if (engineOf(argv[0])) return { kind: 'not-a-run', change: { changed: false, reason: `${argv[0]} ${argv[1] ?? ''} does not start a container`, before } };
  return { kind: 'no-engine', change: { changed: false, reason: 'no docker or podman run in the subject command', before } };
}

function labelledChange(argv: readonly string[], drillId: string): Extract<LabelChange, { changed: true }> | null {
  const before = [...argv];
  const label = `${RUN_LABEL}=${drillId}`;
  const direct = labelArgv(argv, drillId);
  if (direct) return { changed: true, engine: engineOf(argv[0])!, how: 'argv', label, before, after: direct, endpoint: endpointOf(argv) };
  const program = baseName(argv[0] ?? '');
  if (program === 'env') {
    // env [-i] [VAR=x ...] program args...
    let i = 1;
    while (i < argv.length && (argv[i].startsWith('-') || argv[i].includes('='))) i++;
    const inner = labelArgv(argv.slice(i), drillId);
    if (inner)
      return {
        changed: true,
        engine: engineOf(argv[i])!,
        how: 'argv',
        label,
        before,
        after: [...argv.slice(0, i), ...inner],
        endpoint: endpointOf(argv.slice(i)),
      };
  }
  if (SHELLS.has(program)) {
    const c = argv.indexOf('-c');
    const script = c > 0 ? argv[c + 1] : undefined;
    const labelled = script === undefined ? null : labelShellScript(script, drillId);
    if (labelled) {
      const after = [...argv];
      after[c + 1] = labelled.script;
      return { changed: true, engine: labelled.engine, how: 'sh -c', label, before, after, endpoint: [] };
    }
  }
  return null;
}
